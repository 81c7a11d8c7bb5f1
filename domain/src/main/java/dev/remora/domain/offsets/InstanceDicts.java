package dev.remora.domain.offsets;

/**
 * Where a version keeps an instance's attributes: behind a dict pointer, or (3.11+, for classes
 * CPython manages the dict of) as values apart from any dict, keyed by the class's cached keys
 * ({@code ht_cached_keys}) until something asks for {@code __dict__}.
 */
public enum InstanceDicts {
    /** 3.10: the dict pointer sits at the type's {@code tp_dictoffset}. */
    AT_DICT_OFFSET,
    /**
     * 3.11: with {@code Py_TPFLAGS_MANAGED_DICT}, the dict pointer sits three words before the object
     * and, while it is NULL, the values pointer four words before.
     */
    DICT_OR_VALUES_BEFORE,
    /**
     * 3.12: one word three before the object holds the dict, or the values pointer less one, told
     * apart by its low bit ({@code PyDictOrValues}).
     */
    TAGGED_BEFORE,
    /**
     * 3.13+: the dict pointer sits three words before the object; while it is NULL, a class with
     * {@code Py_TPFLAGS_INLINE_VALUES} keeps the values right after the object's
     * {@code tp_basicsize} bytes, valid while their {@code valid} byte says so.
     */
    INLINE_VALUES;

    /** {@code Py_TPFLAGS_MANAGED_DICT} (3.11+). */
    public static final long MANAGED_DICT = 1L << 4;
    /** {@code Py_TPFLAGS_INLINE_VALUES} (3.13+). */
    public static final long INLINE_VALUES_FLAG = 1L << 2;
    /** The managed dict pointer, three words before the object (GIL builds). */
    public static final long MANAGED_DICT_OFFSET = -24;
    /** 3.11's values pointer, four words before the object. */
    public static final long VALUES_POINTER_OFFSET = -32;
    /** 3.13+'s {@code PyDictValues.valid}: after {@code capacity, size, embedded}. */
    public static final int VALID_BYTE = 3;
}
