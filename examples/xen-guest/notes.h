/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/notes.h — assembler macro for one Xen ELF note (the
 * loader reads them from PT_NOTE): owner "Xen", then `desc` as a string
 * (kind str; gas drops the quotes of a macro argument, so they are added
 * here), a 32-bit value (kind long) or a 64-bit value (kind quad).
 */
#include <xen/elfnote.h>

.macro xen_note type:req, kind:req, desc:req
	.pushsection .note.Xen, "a", @note
	.balign 4
	.long 4, 2f - 1f, \type
	.asciz "Xen"
	.balign 4
1:
	.ifc \kind,str
	.asciz "\desc"
	.else
	\kind \desc
	.endif
2:	.balign 4
	.popsection
.endm
