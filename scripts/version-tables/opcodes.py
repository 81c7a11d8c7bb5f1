"""Prints the running interpreter's instruction names by opcode, one line of 256 comma-separated names.

Specialised forms carry the name of the instruction they stand for, and instrumented forms
(INSTRUMENTED_CALL) that of the instruction they wrap: a profile's reader asks what the code does,
not which variant the interpreter picked. Unused opcodes are empty. Run by generate.sh.
"""
import dis
import opcode

names = list(dis._all_opname) if hasattr(dis, "_all_opname") else list(opcode.opname)
names = ["" if n.startswith("<") else n for n in names]
base_of = {}
for base, family in getattr(opcode, "_specializations", {}).items():
    for specialised in family:
        base_of[specialised] = base
for i, n in enumerate(names):
    if n in base_of:
        names[i] = base_of[n]
    elif n.startswith("INSTRUMENTED_") and n != "INSTRUMENTED_LINE" and n != "INSTRUMENTED_INSTRUCTION":
        names[i] = n[len("INSTRUMENTED_"):]
    elif n in ("INSTRUMENTED_LINE", "INSTRUMENTED_INSTRUCTION"):
        names[i] = n[len("INSTRUMENTED_"):]
print(",".join(names[:256] + [""] * (256 - len(names))))
