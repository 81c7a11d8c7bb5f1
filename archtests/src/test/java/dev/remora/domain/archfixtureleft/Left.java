package dev.remora.domain.archfixtureleft;

import dev.remora.domain.archfixtureright.Right;

/** Fixture: one half of a package cycle inside the domain. */
public final class Left {
    public Right right() {
        return new Right();
    }
}
