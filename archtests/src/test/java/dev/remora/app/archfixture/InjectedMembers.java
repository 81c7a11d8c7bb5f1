package dev.remora.app.archfixture;

import com.google.inject.Inject;

/** Takes a dependency through a field and a method, which the injection rules forbid. */
public class InjectedMembers {

    @jakarta.inject.Inject
    Object source;

    @Inject
    void setSource(Object source) {
        this.source = source;
    }
}
