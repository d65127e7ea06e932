/* pbuf.h: the protobuf wire format written straight into a buffer (varints,
 * tags, strings, doubles, and nested messages whose length is patched in
 * place once written), and the numbers of every field of Perfetto's trace
 * messages that `export -f perfetto` writes and of OTLP's that `export -f
 * otlp` writes, each from the .proto it cites. */
#ifndef TL_PBUF_H
#define TL_PBUF_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Wire types (protobuf's encoding guide). No field we write is a sint, so
 * there is no zigzag: an int32 or int64 goes as its two's complement varint. */
enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

/* protos/perfetto/trace/trace.proto: message Trace */
enum { TRACE_PACKET = 1 };

/* protos/perfetto/trace/trace_packet.proto: message TracePacket */
enum {
	PACKET_CLOCK_SNAPSHOT = 6,
	PACKET_TIMESTAMP = 8,
	PACKET_SEQUENCE_ID = 10,         /* trusted_packet_sequence_id */
	PACKET_TRACK_EVENT = 11,
	PACKET_INTERNED_DATA = 12,
	PACKET_SEQUENCE_FLAGS = 13,
	PACKET_TIMESTAMP_CLOCK_ID = 58,
	PACKET_DEFAULTS = 59,            /* trace_packet_defaults */
	PACKET_TRACK_DESCRIPTOR = 60,
};
/* trace_packet.proto: enum TracePacket.SequenceFlags */
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };

/* protos/perfetto/trace/trace_packet_defaults.proto: message TracePacketDefaults */
enum { DEFAULTS_TIMESTAMP_CLOCK_ID = 58, DEFAULTS_TRACK_EVENT = 11 };

/* protos/perfetto/trace/track_event/track_event.proto: message TrackEvent */
enum {
	EVENT_CATEGORY_IIDS = 3,
	EVENT_DEBUG_ANNOTATIONS = 4,
	EVENT_TYPE = 9,
	EVENT_NAME_IID = 10,
	EVENT_TRACK_UUID = 11,
	EVENT_EXTRA_COUNTER_VALUES = 12,
	EVENT_COUNTER_VALUE = 30,
	EVENT_EXTRA_COUNTER_TRACK_UUIDS = 31,
};
/* track_event.proto: enum TrackEvent.Type */
enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
/* track_event.proto: message TrackEventDefaults */
enum { EVENT_DEFAULTS_TRACK_UUID = 11, EVENT_DEFAULTS_EXTRA_COUNTER_TRACK_UUIDS = 31 };
/* track_event.proto: messages EventCategory and EventName (the same two fields);
 * debug_annotation.proto: message DebugAnnotationName (the same) */
enum { INTERNED_IID = 1, INTERNED_NAME = 2 };

/* protos/perfetto/trace/interned_data/interned_data.proto: message InternedData */
enum { INTERNED_EVENT_CATEGORIES = 1, INTERNED_EVENT_NAMES = 2,
       INTERNED_DEBUG_ANNOTATION_NAMES = 3 };

/* protos/perfetto/trace/track_event/debug_annotation.proto: message DebugAnnotation */
enum { ANNOTATION_NAME_IID = 1, ANNOTATION_UINT_VALUE = 3, ANNOTATION_DOUBLE_VALUE = 5,
       ANNOTATION_STRING_VALUE = 6 };

/* protos/perfetto/trace/track_event/track_descriptor.proto: message TrackDescriptor */
enum {
	TRACK_UUID = 1,
	TRACK_NAME = 2,
	TRACK_PROCESS = 3,
	TRACK_THREAD = 4,
	TRACK_PARENT_UUID = 5,
	TRACK_COUNTER = 8,
	TRACK_DESCRIPTION = 14,
};
/* protos/perfetto/trace/track_event/process_descriptor.proto: message ProcessDescriptor */
enum { PROCESS_PID = 1, PROCESS_NAME = 6 };
/* protos/perfetto/trace/track_event/thread_descriptor.proto: message ThreadDescriptor */
enum { THREAD_PID = 1, THREAD_TID = 2, THREAD_NAME = 5 };
/* protos/perfetto/trace/track_event/counter_descriptor.proto: message CounterDescriptor */
enum { COUNTER_UNIT_NAME = 6 };

/* protos/perfetto/trace/clock_snapshot.proto: messages ClockSnapshot and
 * ClockSnapshot.Clock */
enum { SNAPSHOT_CLOCKS = 1, SNAPSHOT_PRIMARY_TRACE_CLOCK = 2 };
enum { CLOCK_ID = 1, CLOCK_TIMESTAMP = 2, CLOCK_IS_INCREMENTAL = 3 };
/* protos/perfetto/common/builtin_clock.proto: enum BuiltinClock; and
 * clock_snapshot.proto: ids 64 to 127 are the writer's own, one sequence's */
enum { BUILTIN_CLOCK_REALTIME = 1, BUILTIN_CLOCK_BOOTTIME = 6, CLOCK_SEQUENCE_FIRST = 64 };

/* OpenTelemetry's OTLP (github.com/open-telemetry/opentelemetry-proto),
 * the fields `export -f otlp` writes and `--endpoint` reads back.
 * opentelemetry/proto/collector/trace/v1/trace_service.proto: messages
 * ExportTraceServiceRequest, ExportTraceServiceResponse and
 * ExportTracePartialSuccess */
enum { OTLP_REQUEST_RESOURCE_SPANS = 1 };
enum { OTLP_RESPONSE_PARTIAL_SUCCESS = 1 };
enum { OTLP_PARTIAL_REJECTED_SPANS = 1, OTLP_PARTIAL_ERROR_MESSAGE = 2 };
/* opentelemetry/proto/trace/v1/trace.proto: messages ResourceSpans and ScopeSpans */
enum { OTLP_RESOURCE_SPANS_RESOURCE = 1, OTLP_RESOURCE_SPANS_SCOPE_SPANS = 2 };
enum { OTLP_SCOPE_SPANS_SCOPE = 1, OTLP_SCOPE_SPANS_SPANS = 2 };
/* trace.proto: message Span (start and end are fixed64, ns since the epoch) */
enum {
	OTLP_SPAN_TRACE_ID = 1,
	OTLP_SPAN_SPAN_ID = 2,
	OTLP_SPAN_PARENT_SPAN_ID = 4,
	OTLP_SPAN_NAME = 5,
	OTLP_SPAN_KIND = 6,
	OTLP_SPAN_START_TIME_UNIX_NANO = 7,
	OTLP_SPAN_END_TIME_UNIX_NANO = 8,
	OTLP_SPAN_ATTRIBUTES = 9,
};
/* trace.proto: enum Span.SpanKind */
enum { OTLP_SPAN_KIND_INTERNAL = 1 };
/* opentelemetry/proto/common/v1/common.proto: messages KeyValue, AnyValue and
 * InstrumentationScope */
enum { OTLP_KEY_VALUE_KEY = 1, OTLP_KEY_VALUE_VALUE = 2 };
enum { OTLP_ANY_STRING_VALUE = 1, OTLP_ANY_INT_VALUE = 3, OTLP_ANY_DOUBLE_VALUE = 4 };
enum { OTLP_SCOPE_NAME = 1, OTLP_SCOPE_VERSION = 2 };
/* opentelemetry/proto/resource/v1/resource.proto: message Resource */
enum { OTLP_RESOURCE_ATTRIBUTES = 1 };
/* googleapis google/rpc/status.proto: message Status, the body of an
 * OTLP/HTTP 4xx or 5xx (opentelemetry-proto's docs/specification.md) */
enum { RPC_STATUS_MESSAGE = 2 };

/* The most bytes a varint takes. */
#define PB_VARINT_MAX 10

/* V as a varint at P; returns the end. */
static inline uint8_t *pb_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The key of FIELD of wire type WIRE. */
static inline uint8_t *pb_tag(uint8_t *p, unsigned field, unsigned wire)
{
	return pb_varint(p, (uint64_t)field << 3 | wire);
}

/* FIELD = V, a varint field (uint32, uint64, int32 >= 0, enum, bool). */
static inline uint8_t *pb_uint(uint8_t *p, unsigned field, uint64_t v)
{
	return pb_varint(pb_tag(p, field, PB_VARINT), v);
}

/* FIELD = V, an int32 or int64 field: a negative value takes ten bytes. */
static inline uint8_t *pb_int(uint8_t *p, unsigned field, int64_t v)
{
	return pb_uint(p, field, (uint64_t)v);
}

/* FIELD = D, a double (8 bytes, little-endian). */
static inline uint8_t *pb_double(uint8_t *p, unsigned field, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, 8);
	p = pb_tag(p, field, PB_I64);
	for (int i = 0; i < 8; i++)
		*p++ = (uint8_t)(bits >> (8 * i));
	return p;
}

/* FIELD = the 8 bytes of V, little-endian: a fixed64 (OTLP's times). */
static inline uint8_t *pb_fixed64(uint8_t *p, unsigned field, uint64_t v)
{
	p = pb_tag(p, field, PB_I64);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
	return p + 8;
#else
	for (int i = 0; i < 8; i++)
		*p++ = (uint8_t)(v >> (8 * i));
	return p;
#endif
}

/* FIELD = the N bytes at S (a string or bytes field). */
static inline uint8_t *pb_bytes(uint8_t *p, unsigned field, const void *s, size_t n)
{
	p = pb_varint(pb_tag(p, field, PB_LEN), n);
	memcpy(p, s, n);
	return p + n;
}

/* A nested message FIELD: writes its key and one byte for its length, and
 * returns where its body starts; *MARK keeps the length's place for
 * pb_close(). */
static inline uint8_t *pb_open(uint8_t *p, unsigned field, uint8_t **mark)
{
	p = pb_tag(p, field, PB_LEN);
	*mark = p;
	return p + 1;
}

/* Moves the body at MARK + 1 .. END up to make room for a length of more
 * than one byte, and writes the length; returns the new end (pbuf.c). */
uint8_t *pb_close_long(uint8_t *mark, uint8_t *end);

/* Ends the nested message opened at MARK whose body ends at END: patches
 * its length in place, which for a body under 128 bytes (the usual packet)
 * moves nothing. Returns the end, which moves when the length is longer. */
static inline uint8_t *pb_close(uint8_t *mark, uint8_t *end)
{
	size_t n = (size_t)(end - mark - 1);
	if (n < 0x80) {
		*mark = (uint8_t)n;
		return end;
	}
	return pb_close_long(mark, end);
}
#endif
