package dev.remora.domain.locals;

import dev.remora.domain.model.VariableKind;

import java.util.List;

/**
 * How a code object names the slots of its frames' variables: one name and kind per slot, in slot
 * order, its parameters first.
 *
 * @param hidden slots {@code locals()} does not show (3.12+'s inlined comprehensions)
 * @param cellOfArgument 3.10: per slot, the slot of the cell an argument was moved into when an inner
 *     function closes over it (its own slot is then empty), or -1
 * @param holdsCell per slot, whether it is a cell or free slot, which holds a cell object to follow
 *     (a plain local that holds a cell object shows the cell)
 */
record CodeVariableNames(List<String> names, List<VariableKind> kinds, boolean[] hidden, int[] cellOfArgument,
                         boolean[] holdsCell) {

    int slots() {
        return names.size();
    }
}
