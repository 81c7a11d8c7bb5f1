package dev.remora.domain.offsets;

import java.util.OptionalInt;

/**
 * The head of {@code PyDictKeysObject} ({@code struct _dictkeysobject} in
 * {@code Include/internal/pycore_dict.h}) of GIL builds, which the debug offsets do not export, and
 * the entries that follow its index table.
 *
 * @param log2IndexBytes offset of {@code dk_log2_index_bytes} (u8): the index table is
 *     {@code 1 << value} bytes long
 * @param kind offset of {@code dk_kind} (u8)
 * @param entryCount offset of {@code dk_nentries} (ssize)
 * @param indices offset of {@code dk_indices}, where the index table starts
 * @param generalKind {@code DICT_KEYS_GENERAL}: entries are {@code {hash, key, value}}; the other
 *     kinds hold {@code {key, value}}
 * @param legacySize 3.10: where {@code Py_ssize_t dk_size} sits; its index table takes {@code dk_size}
 *     entries as wide as that size needs, its entries are all {@code {hash, key, value}}, and it has
 *     neither {@code dk_log2_index_bytes} nor {@code dk_kind}
 */
public record DictKeysLayout(int log2IndexBytes, int kind, int entryCount, int indices, int generalKind,
                             OptionalInt legacySize) {

    /**
     * 3.10's {@code struct _dictkeysobject} ({@code Objects/dict-common.h}, not installed):
     * {@code dk_refcnt, dk_size, dk_lookup, dk_usable, dk_nentries, dk_indices[]}.
     */
    public static final DictKeysLayout LEGACY_3_10 = new DictKeysLayout(-1, -1, 32, 40, 0, OptionalInt.of(8));

    /** From a version's generated table. */
    public static DictKeysLayout from(HeaderTable t) {
        return new DictKeysLayout((int) t.require("dict_keys.log2_index_bytes"), (int) t.require("dict_keys.kind"),
                (int) t.require("dict_keys.nentries"), (int) t.require("dict_keys.indices"),
                (int) t.require("dict_keys.general_kind"), OptionalInt.empty());
    }

    /** The bytes of the index table of a legacy keys object with {@code dkSize} slots. */
    public static long legacyIndexBytes(long dkSize) {
        int width = dkSize <= 0xff ? 1 : dkSize <= 0xffff ? 2 : dkSize <= 0xffff_ffffL ? 4 : 8;
        return dkSize * width;
    }

    public int entrySize(int kindValue) {
        return kindValue == generalKind ? 24 : 16;
    }

    /** Where the key pointer sits inside an entry. */
    public int keyInEntry(int kindValue) {
        return kindValue == generalKind ? 8 : 0;
    }
}
