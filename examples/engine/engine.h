/* engine.h: the demo engine's packets, links and apps: a small Snabb-like
 * packet-processing engine, instrumented only through the functions that
 * `timeline gen` writes from events/app.events and events/engine.events. */
#ifndef ENGINE_H
#define ENGINE_H
#include <stdint.h>
#include "app_events.h"

#define PACKET_MAX 1536
#define LINK_SIZE 1024               /* packets a link holds: a power of two */
#define POOL_SIZE 8192

/* A packet, aligned to a cache line as Snabb's and DPDK's buffers are.
 * Packed back to back (a 1538-byte stride) the headers straddled lines,
 * and on an Intel Xeon guest the cheap apps (rewrite, lookup, sink) cost
 * 40-60% more in some runs than in others, the more often the faster the
 * checksum: two normal sets of runs differed by chance, and slowing the
 * checksum made its neighbours cheaper (bench/README.md, "diff's verdict,
 * calibrated"). */
struct packet {
	uint16_t len;
	uint8_t data[PACKET_MAX];
} __attribute__((aligned(64)));

/* A link: a ring of packet pointers between two apps, with its counters. */
struct link {
	struct packet *ring[LINK_SIZE];
	uint32_t read, write;        /* free-running; write - read packets held */
	uint64_t txpackets, txbytes; /* put on the link */
};

static inline int link_empty(const struct link *l) { return l->read == l->write; }
static inline int link_full(const struct link *l) { return l->write - l->read == LINK_SIZE; }
static inline struct packet *link_receive(struct link *l) { return l->ring[l->read++ % LINK_SIZE]; }
static inline void link_transmit(struct link *l, struct packet *p)
{
	l->ring[l->write++ % LINK_SIZE] = p;
	l->txpackets++;
	l->txbytes += p->len;
}

/* A workload: packet sizes and batch sizes drawn for each breath. */
struct workload {
	const char *name, *what;
	const uint16_t *sizes;       /* packet sizes, drawn uniformly from the list */
	unsigned nsizes;
	unsigned batch_min, batch_max;   /* packets the source makes per breath */
	unsigned idle_pct;           /* breaths in which the source makes nothing */
};

struct app;
typedef void app_fn(struct app *a);

/* An app: its callbacks, links, running totals and message ids. */
struct app {
	const char *name;
	app_fn *pull, *push;
	struct link *in, *out;
	uint64_t inpackets, inbytes, outpackets, outbytes;
	unsigned slow_pct;           /* --slow: extra work, in % of the normal */
	uint64_t credit;             /* work_rounds()'s carry */
	struct app_events ev;
	void *state;
};

/* The apps of the chain source -> checksum -> rewrite -> lookup -> sink. */
void source_pull(struct app *a);
void checksum_push(struct app *a);
void rewrite_push(struct app *a);
void lookup_push(struct app *a);
void sink_push(struct app *a);

/* Sets the source's workload and the generator seed. */
void source_setup(const struct workload *w, uint64_t seed);

/* Packets from the pool (NULL when empty) and back. */
struct packet *packet_alloc(void);
void packet_free(struct packet *p);
void apps_init(void);

/* The work an app does per packet is repeated for --slow: 100 + slow_pct
 * per cent of it, in whole and partial rounds. */
unsigned work_rounds(struct app *a, uint64_t *credit);
#endif
