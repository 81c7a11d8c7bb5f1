package dev.remora.domain.offsets;

/**
 * Where a split dict (an instance's, sharing its keys with the class) keeps its values: behind
 * {@code ma_values}, one pointer per key.
 *
 * @param valuesOffset where {@code values[]} starts inside {@code PyDictValues}
 * @param ordered 3.13+: {@code PyDictValues} starts with {@code uint8_t capacity, size}, and after
 *     {@code values[capacity]} comes the insertion order, {@code size} key indexes of a byte each;
 *     before, values are shown in key order
 */
public record SplitDictValues(int valuesOffset, boolean ordered) {

    /** 3.10-3.12: {@code values[]} at the start, no order kept apart. */
    public static final SplitDictValues KEY_ORDER = new SplitDictValues(0, false);
    /** 3.13+: {@code capacity, size, embedded, valid} then {@code values[]} at 8. */
    public static final SplitDictValues INSERTION_ORDER = new SplitDictValues(8, true);
}
