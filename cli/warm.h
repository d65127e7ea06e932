/* warm.h: a helper thread that reads the inputs of a merge, or the file
 * stats or diff is reading, ahead of the main thread (tl_reader_warm), so it
 * finds its entries in the shared cache instead of waiting on memory. */
#ifndef TL_WARM_H
#define TL_WARM_H
#include <stddef.h>
#include "timeline.h"

/* Starts warming the N rewound readers R (the array must outlive
 * warm_stop()). Does nothing on a single CPU or if no thread can start. */
void warm_start(tl_reader *const *r, size_t n);

/* Stops and joins the helper; call before rewinding or closing a reader. */
void warm_stop(void);
#endif
