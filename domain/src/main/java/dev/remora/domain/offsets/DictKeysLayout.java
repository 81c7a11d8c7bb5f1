package dev.remora.domain.offsets;

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
 */
public record DictKeysLayout(int log2IndexBytes, int kind, int entryCount, int indices, int generalKind) {

    /** From a version's generated table. */
    static DictKeysLayout from(HeaderTable t) {
        return new DictKeysLayout((int) t.require("dict_keys.log2_index_bytes"), (int) t.require("dict_keys.kind"),
                (int) t.require("dict_keys.nentries"), (int) t.require("dict_keys.indices"),
                (int) t.require("dict_keys.general_kind"));
    }

    public int entrySize(int kindValue) {
        return kindValue == generalKind ? 24 : 16;
    }

    /** Where the key pointer sits inside an entry. */
    public int keyInEntry(int kindValue) {
        return kindValue == generalKind ? 8 : 0;
    }
}
