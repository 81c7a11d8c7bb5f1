package dev.remora.domain.offsets;

import java.util.Optional;

/**
 * What reading a frame's variables and showing their values takes: where a frame keeps them, how a
 * code object names them, and the fields of the builtin objects whose values are shown.
 *
 * @param frameLocalsPlus where a frame's variables start ({@code localsplus}, 3.10's {@code f_localsplus})
 */
public record VariableLayout(long frameLocalsPlus, CodeVariables code, ObjectFields objects) {

    /**
     * How a code object names its variables. The first {@code argcount + kwonlyargcount} variables are
     * the arguments, then {@code *args} and {@code **kwargs} where the flags say so.
     *
     * @param localsPlus 3.11+: one tuple of names and one bytes object of kinds for all of them
     * @param separate 3.10: locals, cells and frees named by three tuples, laid out in that order
     */
    public record CodeVariables(long argcount, long kwonlyargcount, long flags, int varargsFlag,
                                int varkeywordsFlag, Optional<LocalsPlusNames> localsPlus,
                                Optional<SeparateNames> separate) {}

    /**
     * {@code co_localsplusnames} and {@code co_localspluskinds} with the kind bits ({@code CO_FAST_*}).
     *
     * @param hiddenKind the bit of variables {@code locals()} does not show (inlined comprehensions,
     *     3.12+), 0 where there are none
     */
    public record LocalsPlusNames(long names, long kinds, int localKind, int cellKind, int freeKind, int hiddenKind) {}

    /** 3.10's {@code co_varnames}, {@code co_cellvars} and {@code co_freevars}. */
    public record SeparateNames(long varnames, long cellvars, long freevars) {}

    /**
     * Fields of the builtin objects shown by value.
     *
     * @param set absent where the layout does not say ({@code PySetObject} is read only with it)
     * @param instances where instances keep their attributes; absent where the layout does not say
     */
    public record ObjectFields(Sequence tuple, Sequence list, long floatValue, DictFields dict,
                               Optional<SetFields> set, long cellRef, IntFields ints, Optional<InstanceFields> instances) {}

    /**
     * What finding an instance's attributes takes: its type's {@code tp_basicsize},
     * {@code tp_dictoffset} and {@code tp_flags}, a class's {@code ht_cached_keys}, and the version's way.
     */
    public record InstanceFields(long basicSize, long dictOffset, long flags, long cachedKeys, InstanceDicts where) {}

    /**
     * A tuple's or list's length and items.
     *
     * @param itemsInline the items follow in the object (tuple) rather than behind a pointer (list)
     */
    public record Sequence(long size, long items, boolean itemsInline) {}

    public record DictFields(long used, long keys, long values) {}

    public record SetFields(long used, long mask, long table) {}

    /**
     * An int's sign and digit count, and its 30-bit digits.
     *
     * @param tagged 3.12+: {@code lv_tag} holds {@code ndigits << 3} and the sign in its low bits;
     *     before, {@code ob_size} is the digit count, negative for negative numbers
     */
    public record IntFields(long sizeOrTag, long digits, boolean tagged) {}
}
