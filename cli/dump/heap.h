/* heap.h: a binary min-heap of (key, index) pairs, merge's order of its
 * inputs: by key, and at equal keys by index, so that equal times keep
 * the inputs' order. Each key sits next to its index: sifting touches one
 * array. */
#ifndef TL_HEAP_H
#define TL_HEAP_H
#include <stddef.h>
#include <stdint.h>

struct heap_node {
	uint64_t key;
	size_t index;
};

static inline int heap_less(const struct heap_node *x, const struct heap_node *y)
{
	return x->key < y->key || (x->key == y->key && x->index < y->index);
}

/* Moves node I of the N in HEAP down to its place. */
static inline void heap_sift_down(struct heap_node *heap, size_t n, size_t i)
{
	struct heap_node x = heap[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && heap_less(&heap[c + 1], &heap[c]))
			c++;
		if (!heap_less(&heap[c], &x))
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = x;
}

/* Orders the N nodes of HEAP, in any order before, as a heap. */
static inline void heap_make(struct heap_node *heap, size_t n)
{
	for (size_t i = n; i-- > 0;)
		heap_sift_down(heap, n, i);
}
#endif
