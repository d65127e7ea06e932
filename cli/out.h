/* out.h: buffered output for the reading commands: numbers without printf,
 * CSV fields quoted by libcsv, JSON strings escaped. Write errors (a full
 * disk, a closed pipe) are remembered and reported by cli_finish(). */
#ifndef TL_OUT_H
#define TL_OUT_H
#include <stddef.h>
#include <stdint.h>

void out_bytes(const char *s, size_t n);
void out_str(const char *s);
void out_char(char c);
void out_u64(uint64_t v);
void out_i64(int64_t v);
void out_double(double d);           /* %.17g: round-trips */
void out_csv(const char *s);          /* one CSV field, quoted when needed */
void out_json(const char *s);         /* a JSON string with its quotes */
void out_pad(uint64_t v, int width);  /* v right-aligned in WIDTH columns */
void out_flush(void);
#endif
