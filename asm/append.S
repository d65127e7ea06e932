/* append.S: the hand-written x86-64 logger, tl_event() and tl_append().
 * Appends one 64-byte entry to the ring of a mapped log. The portable C twin
 * with the same store sequence is lib/append.c; the layout is lib/format.h.
 *
 * void tl_event(tl_log *log, unsigned event, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5);
 *   (event = msgid << 8 | rate, from tl_event_code())
 * void tl_append(tl_log *log, unsigned msgid, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5);
 *
 * Store order (what makes a crash or a concurrent reader safe; x86 keeps
 * stores in program order, so no fence is needed):
 *   1. entry.seq = ~(n+1)      the slot is busy: its old contents are void
 *   2. arguments, msgid        the payload
 *   3. tsc, cpu/node word      the clock's values (see below for the read)
 *   4. entry.seq = n+1         the entry is complete
 *   5. header.cursor = n+1     the entry is published
 * A reader accepts slot n & mask as entry n only if seq reads n+1 both
 * before and after it copies the slot (see lib/reader.c).
 *
 * Reading the clock is not a store, so it may come earlier than step 3:
 * the rseq source (the usual one) reads it first of all, before the slot is
 * claimed, and stores the two halves RDTSC returns as they are; the other
 * sources read it after step 2. On a Zen 5 guest the rseq order costs 1.10x
 * the ordered floor against 1.12x for the order before (the clock after
 * the busy marker and a0, its halves joined first); bench/README.md,
 * "The stores under the floor".
 *
 * Every TSC read waits for the work before it: LFENCE before RDTSC, or
 * RDTSCP, which waits by itself. Without it the core reads the TSC before
 * the caller's work ahead of the call has finished, and the tail of that
 * work counts in the next interval (timeline(3), "Ordering"). Only
 * TL_CLOCK_RDTSC_RSEQ_UNORDERED, on request, skips it.
 *
 * One writer per lane: the cursor is loaded and stored, not incremented
 * atomically. Each thread writes a lane of its own (lib/lane.c): its
 * cache at %fs, {log, lane}, says which; another log, or none yet, takes
 * the slow path, tl_lane_get(). A lane's header has cursor, mask and
 * rseq_offset at the main header's offsets, and its ring 4096 bytes on,
 * so once %rdi is the lane the rseq path writes it as it writes lane 0.
 *
 * Event switches (lib/format.h): before anything, tl_append tests the
 * event's bit in the header's switch words, which another process may
 * flip at any time; set, it returns without a store. When the flipper has
 * said so in switch_pending, it first has lib/switch.c grant the requests
 * to switch on and record the switches in the ring, then tests again. */

#include "../lib/format.h"

	.text
	.hidden	tl_slow_clock			/* lib/clock.c, internal */
	.hidden	tl_switch_record		/* lib/switch.c, internal */
	.hidden	tl_lane_get			/* lib/lane.c, internal */
	.hidden	tl_lane_tls			/* lib/lane.h: {log, lane}, this thread's */

/* tl_event: log EVENT (msgid << 8 | rate) if its rate >= the current rate.
 * Disabled, it is the compare, a branch not taken and the RET beside it:
 * no taken branch to a RET elsewhere. */
	.globl	tl_event
	.type	tl_event,@function
	.p2align 4
tl_event:
	cmpb	TL_HDR_RATE(%rdi), %sil		/* event's rate below the current rate? */
	jae	1f
	ret					/* then not this breath */
1:	shr	$8, %esi			/* esi = msgid */
	/* fall through into tl_append */
	.size	tl_event, .-tl_event

/* tl_append: log MSGID (low 16 bits of esi) unless its switch is off. */
	.globl	tl_append
	.type	tl_append,@function
tl_append:
	/* the event's switch, bit (msgid >> 2) & 63 of the header's switch
	 * word msgid >> 8 (lib/format.h): one load, independent of the
	 * clock byte's, so both are done by the time LFENCE lets RDTSC go */
	movzwl	%si, %eax			/* eax = msgid */
	mov	%eax, %r10d
	shr	$8, %eax			/* eax = switch word */
	shr	$2, %r10d			/* r10 = switch bit (BT takes it mod 64) */
	mov	TL_HDR_SWITCHES(%rdi,%rax,8), %rax
	bt	%r10, %rax
	jnc	1f
	cmpl	$0, TL_HDR_SWITCH_PENDING(%rdi)	/* off: a change to record (and to grant)? */
	jne	7f
	ret					/* switched off: nothing is written */
1:	cmpl	$0, TL_HDR_SWITCH_PENDING(%rdi)	/* switches changed since the last record? */
	jne	7f
	/* this thread's lane: r11 = lane (the header for lane 0) */
	mov	tl_lane_tls@gottpoff(%rip), %r11
	cmp	%fs:(%r11), %rdi		/* the cache is of this log? */
	jne	9f
	mov	%fs:8(%r11), %r11
	cmpb	$TL_CLK_RDTSC_RSEQ, TL_HDR_CLOCK(%rdi)
	jne	8f				/* not the usual source */
	mov	%r11, %rdi			/* from here on the lane */
	movq	%rdx, %xmm0			/* a0, out of RDTSC's way */
	/* LFENCE: RDTSC runs only once the caller's work before the call is
	 * done, so the time of an event never leaks the tail of the work
	 * before it into the interval after it (see timeline(3), the rseq
	 * source) */
	lfence
3:	rdtsc					/* edx:eax = TSC, first of all */
	/* claim the next slot of the lane: n = cursor, r11 = its offset */
	mov	TL_HDR_CURSOR(%rdi), %r10	/* r10 = n, this entry's number */
	mov	TL_HDR_MASK(%rdi), %r11		/* r11 = entries - 1 */
	and	%r10, %r11			/* r11 = slot index */
	shl	$TL_ENTRY_SHIFT, %r11		/* r11 = slot offset in the ring */
	add	$1, %r10			/* r10 = n+1 */
	/* 1. mark the slot busy before touching its payload; the complement
	 * of all 64 bits, twice, keeps n+1 whole past 2^32 */
	not	%r10				/* r10d = busy marker ~(n+1) */
	mov	%r10d, TL_HEADER_BYTES+TL_ENT_SEQ(%rdi,%r11)
	not	%r10				/* r10 = n+1 again */
	/* 2. the payload: six arguments, the message id */
	movq	%xmm0, TL_HEADER_BYTES+TL_ENT_ARG0+0(%rdi,%r11)	/* a0 */
	mov	%rcx, TL_HEADER_BYTES+TL_ENT_ARG0+8(%rdi,%r11)	/* a1 */
	mov	%r8, TL_HEADER_BYTES+TL_ENT_ARG0+16(%rdi,%r11)	/* a2 */
	mov	%r9, TL_HEADER_BYTES+TL_ENT_ARG0+24(%rdi,%r11)	/* a3 */
	mov	8(%rsp), %rcx			/* a4 from the stack */
	mov	%rcx, TL_HEADER_BYTES+TL_ENT_ARG0+32(%rdi,%r11)
	mov	16(%rsp), %rcx			/* a5 from the stack */
	mov	%rcx, TL_HEADER_BYTES+TL_ENT_ARG0+40(%rdi,%r11)
	mov	%si, TL_HEADER_BYTES+TL_ENT_MSGID(%rdi,%r11)	/* low 16 bits of esi */
	/* 3. the clock: the TSC's halves as RDTSC gave them, then the
	 * cpu/node word from this thread's rseq area (lib/format.h) */
	mov	%eax, TL_HEADER_BYTES+TL_ENT_TSC(%rdi,%r11)
	mov	%edx, TL_HEADER_BYTES+TL_ENT_TSC+4(%rdi,%r11)
	mov	TL_HDR_RSEQ(%rdi), %r8		/* r8 = __rseq_offset */
	mov	%fs:TL_RSEQ_CPU_ID(%r8), %ecx	/* ecx = cpu_id */
	mov	%fs:TL_RSEQ_NODE_ID(%r8), %r8d	/* r8d = node_id */
	shl	$12, %r8d
	or	%r8d, %ecx			/* ecx = node << 12 | cpu */
	mov	%cx, TL_HEADER_BYTES+TL_ENT_AUX(%rdi,%r11)
	/* 4. the entry is complete; 5. publish it */
	mov	%r10d, TL_HEADER_BYTES+TL_ENT_SEQ(%rdi,%r11)	/* seq = low 32 bits of n+1 */
	mov	%r10, TL_HDR_CURSOR(%rdi)	/* cursor = n+1 */
	ret

	/* the rare paths, in C, keeping the arguments, then the whole call
	 * again: the switches changed (grant the requests to switch on and
	 * record them in the ring first, lib/switch.c, then test this event's
	 * switch again), or no lane of this log in the cache (find or make it,
	 * lib/lane.c, which puts it there) */
7:	lea	tl_switch_record(%rip), %rax
	jmp	.Lin_c
9:	lea	tl_lane_get(%rip), %rax
.Lin_c:	push	%rdi				/* six pushes and 8 bytes: rsp is */
	push	%rsi				/* 16-byte aligned at the call */
	push	%rdx
	push	%rcx
	push	%r8
	push	%r9
	sub	$8, %rsp
	call	*%rax
	add	$8, %rsp
	pop	%r9
	pop	%r8
	pop	%rcx
	pop	%rdx
	pop	%rsi
	pop	%rdi
	jmp	tl_append

	/* the rseq source without its LFENCE, on request only */
8:	cmpb	$TL_CLK_RDTSC_RSEQ_UNORDERED, TL_HDR_CLOCK(%rdi)
	jne	0f				/* another clock: the general path */
	mov	%r11, %rdi
	movq	%rdx, %xmm0
	jmp	3b

	/* The general path: the payload first, then the clock. rdi stays the
	 * header (the clock byte, the manual clock), xmm1 keeps the lane. */
0:	movq	%r11, %xmm1
	mov	TL_HDR_CURSOR(%r11), %r10	/* r10 = n, this entry's number */
	mov	TL_HDR_MASK(%r11), %rax		/* rax = entries - 1 */
	and	%r10, %rax			/* rax = slot index */
	shl	$TL_ENTRY_SHIFT, %rax		/* rax = slot offset in the ring */
	lea	TL_HEADER_BYTES(%r11,%rax), %r11 /* r11 = slot address */

	/* 1. mark the slot busy before touching its payload */
	lea	1(%r10), %eax			/* eax = low 32 bits of n+1 */
	not	%eax				/* eax = busy marker ~(n+1) */
	mov	%eax, TL_ENT_SEQ(%r11)

	/* 2. payload: six arguments, then the message id */
	mov	%rdx, TL_ENT_ARG0+0(%r11)	/* a0 (before RDTSC clobbers rdx) */
	mov	%rcx, TL_ENT_ARG0+8(%r11)	/* a1 (before RDPID/RDTSCP clobber rcx) */
	mov	%r8, TL_ENT_ARG0+16(%r11)	/* a2 */
	mov	%r9, TL_ENT_ARG0+24(%r11)	/* a3 */
	mov	8(%rsp), %rax			/* a4 from the stack */
	mov	%rax, TL_ENT_ARG0+32(%r11)
	mov	16(%rsp), %rax			/* a5 from the stack */
	mov	%rax, TL_ENT_ARG0+40(%r11)
	mov	%si, TL_ENT_MSGID(%r11)		/* msgid = low 16 bits of esi */

	/* the clock: rax = timestamp, cx = cpu/node word */
	cmpb	$TL_CLK_RDTSC_RDPID, TL_HDR_CLOCK(%rdi)
	jne	2f
	lfence					/* the work before the call is done */
	rdtsc					/* edx:eax = TSC */
	rdpid	%rcx				/* rcx = TSC_AUX = node << 12 | cpu */
	shl	$32, %rdx
	or	%rdx, %rax			/* rax = 64-bit TSC */
	/* 3. the clock */
1:	mov	%rax, TL_ENT_TSC(%r11)
	mov	%cx, TL_ENT_AUX(%r11)

	/* 4. the entry is complete; 5. publish it */
	lea	1(%r10), %rax			/* rax = n+1 */
	mov	%eax, TL_ENT_SEQ(%r11)		/* seq = low 32 bits of n+1 */
	movq	%xmm1, %rdx			/* rdx = the lane */
	mov	%rax, TL_HDR_CURSOR(%rdx)	/* cursor = n+1 */
	ret

	/* the other clock sources, out of the hot path */
2:	cmpb	$TL_CLK_RDTSC_LSL, TL_HDR_CLOCK(%rdi)	/* no RDPID */
	jne	6f
	lfence					/* LSL does not wait on every CPU */
	rdtsc
	shl	$32, %rdx
	or	%rdx, %rax
	mov	$0x7b, %ecx			/* Linux's per-CPU GDT segment selector */
	lsl	%ecx, %ecx			/* ecx = its limit = node << 12 | cpu, as */
	jmp	1b				/* the vDSO's getcpu() reads it */
6:	cmpb	$TL_CLK_RDTSCP, TL_HDR_CLOCK(%rdi)
	jne	3f
	rdtscp					/* edx:eax = TSC, ecx = TSC_AUX; waits
						   for the work before it by itself */
	shl	$32, %rdx
	or	%rdx, %rax
	jmp	1b
3:	cmpb	$TL_CLK_RDTSC, TL_HDR_CLOCK(%rdi)	/* no cpu word */
	jne	4f
	lfence
	rdtsc
	shl	$32, %rdx
	or	%rdx, %rax
	mov	$0xffff, %ecx			/* cpu/node unknown */
	jmp	1b
4:	cmpb	$TL_CLK_MANUAL, TL_HDR_CLOCK(%rdi)	/* from the header */
	jne	5f
	mov	TL_HDR_MANUAL_TSC(%rdi), %rax
	movzwl	TL_HDR_MANUAL_AUX(%rdi), %ecx
	jmp	1b
5:	/* TL_CLOCK_MONOTONIC (or anything else): ask C; keep caller-saved state */
	movq	%xmm1, %rax
	push	%rdi				/* four pushes and 8 bytes: rsp is */
	push	%r10				/* 16-byte aligned at the call */
	push	%r11
	push	%rax				/* the lane */
	sub	$8, %rsp
	call	tl_slow_clock			/* rax = time, rdx = cpu/node word */
	add	$8, %rsp
	pop	%rcx
	movq	%rcx, %xmm1
	pop	%r11
	pop	%r10
	pop	%rdi
	mov	%edx, %ecx
	jmp	1b
	.size	tl_append, .-tl_append

	.section .note.GNU-stack,"",@progbits
