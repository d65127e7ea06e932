/* apps.c: the demo engine's apps and packet pool. Each does real work that
 * depends on the packet and the batch: a ones'-complement checksum over the
 * payload, a header rewrite, a lookup in a table larger than the cache, and
 * a sink. The cost per packet differs by app and by batch size. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static struct packet pool[POOL_SIZE];
static struct packet *free_list[POOL_SIZE];
static unsigned nfree;
static const struct workload *load;
static uint64_t rng = 88172645463325252ull;
static uint8_t payload[PACKET_MAX + 64];

#define TABLE_SIZE (1u << 20)        /* 8 MiB: bigger than the L2, often than L3 */
static uint64_t *table;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

void apps_init(void)
{
	for (unsigned i = 0; i < POOL_SIZE; i++)
		free_list[nfree++] = &pool[i];
	for (unsigned i = 0; i < sizeof payload; i++)
		payload[i] = (uint8_t)(next_random() >> 24);
	table = calloc(TABLE_SIZE, sizeof *table);
	if (!table)
		abort();
	for (unsigned i = 0; i < TABLE_SIZE; i++)
		table[i] = next_random();
}

struct packet *packet_alloc(void)
{
	return nfree ? free_list[--nfree] : NULL;
}

void packet_free(struct packet *p)
{
	free_list[nfree++] = p;
}

void source_setup(const struct workload *w, uint64_t seed)
{
	load = w;
	rng = seed | 1;
}

unsigned work_rounds(struct app *a, uint64_t *credit)
{
	*credit += 100 + a->slow_pct;
	unsigned n = (unsigned)(*credit / 100);
	*credit %= 100;
	return n;
}

/* Makes a batch of packets of the workload's sizes on the output link. */
void source_pull(struct app *a)
{
	unsigned span = load->batch_max - load->batch_min + 1, n;
	if (next_random() % 100 < load->idle_pct)
		return;
	n = load->batch_min + (unsigned)(next_random() % span);
	for (unsigned i = 0; i < n && !link_full(a->out); i++) {
		struct packet *p = packet_alloc();
		if (!p)
			break;
		p->len = load->sizes[next_random() % load->nsizes];
		memcpy(p->data, payload + (next_random() & 63), p->len);
		link_transmit(a->out, p);
		a->outpackets++;
		a->outbytes += p->len;
	}
}

/* Moves every packet of the input link through WORK to the output link. */
static void forward(struct app *a, void (*work)(struct packet *))
{
	while (!link_empty(a->in) && !link_full(a->out)) {
		struct packet *p = link_receive(a->in);
		a->inpackets++;
		a->inbytes += p->len;
		for (unsigned r = work_rounds(a, &a->credit); r > 0; r--)
			work(p);
		link_transmit(a->out, p);
		a->outpackets++;
		a->outbytes += p->len;
	}
}

/* RFC 1071 ones'-complement sum over the payload, stored at bytes 24-25. */
static void checksum(struct packet *p)
{
	uint64_t sum = 0;
	unsigned i;
	for (i = 34; i + 1 < p->len; i += 2)
		sum += (uint32_t)p->data[i] << 8 | p->data[i + 1];
	if (i < p->len)
		sum += (uint32_t)p->data[i] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	p->data[24] = (uint8_t)(~sum >> 8);
	p->data[25] = (uint8_t)~sum;
}

/* Swaps the MAC addresses, decrements the TTL, patches the checksum. */
static void rewrite(struct packet *p)
{
	uint8_t mac[6];
	memcpy(mac, p->data, 6);
	memcpy(p->data, p->data + 6, 6);
	memcpy(p->data + 6, mac, 6);
	if (p->data[22])
		p->data[22]--;
	p->data[25] = (uint8_t)(p->data[25] + 1);
}

/* Looks the flow's 5-tuple up in a table of 2^20 entries (a cache miss most
 * of the time) and writes the result into the header. */
static void lookup(struct packet *p)
{
	uint64_t key, h;
	memcpy(&key, p->data + 26, 8);
	key ^= (uint64_t)p->data[23] << 56 ^ (uint64_t)p->len;
	h = key * 0x9e3779b97f4a7c15ull;
	h ^= table[(h >> 20) & (TABLE_SIZE - 1)];
	memcpy(p->data + 30, &h, 4);
}

void checksum_push(struct app *a) { forward(a, checksum); }
void rewrite_push(struct app *a) { forward(a, rewrite); }
void lookup_push(struct app *a) { forward(a, lookup); }

/* Takes every packet off the input link and frees it. */
void sink_push(struct app *a)
{
	while (!link_empty(a->in)) {
		struct packet *p = link_receive(a->in);
		a->inpackets++;
		a->inbytes += p->len;
		packet_free(p);
	}
}
