package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.List;

/**
 * C++ symbol names (the Itanium ABI's, which g++ and clang write) as gdb and {@code c++filt} show
 * them: {@code _ZNKSt6vectorIiSaIiEE4sizeEv} is {@code std::vector<int, std::allocator<int> >::size()
 * const}. Names, templates, operators, constructors, lambdas, local names, thunks, vtables and clone
 * suffixes are read; a name using what is not (expressions in templates, decltype, vendor qualifiers)
 * or that is not well formed is left as it is, never shown wrong. Bounded: mangled names longer than
 * {@link #MAX_MANGLED}, nesting deeper than {@link #MAX_DEPTH} and names that would grow past
 * {@link #MAX_DEMANGLED} are left as they are too.
 */
final class CxxNames {

    static final int MAX_MANGLED = 4096;
    static final int MAX_DEPTH = 128;
    static final int MAX_DEMANGLED = 16384;

    private CxxNames() {}

    /** The name as gdb shows it, or {@code symbol} itself when it is not a C++ name this reads. */
    static String demangle(String symbol) {
        if (!symbol.startsWith("_Z") || symbol.length() > MAX_MANGLED) {
            return symbol;
        }
        try {
            return new Parser(symbol).whole();
        } catch (Unsupported | RuntimeException e) {
            return symbol;
        }
    }

    /** A name this does not read. */
    private static final class Unsupported extends Exception {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /**
     * A type as it is shown: {@code head}, then the declarator {@code inner} (pointers, references,
     * member pointers to functions and arrays go between parentheses), then {@code outer} (a
     * function's parameters, an array's bounds).
     */
    private record Type(String head, String inner, String outer, boolean function, boolean array) {

        static Type plain(String text) {
            return new Type(text, "", "", false, false);
        }

        String render() {
            if (outer.isEmpty()) {
                return head + inner;
            }
            if (inner.isEmpty()) {
                return head + " " + outer;
            }
            return head + " (" + inner + ")" + (array ? " " : "") + outer;
        }

        /** {@code declarator} (a pointer, a reference) applied to this type. */
        Type with(String declarator) {
            // A reference to a reference is one reference: an lvalue one unless both are rvalue ones.
            if (declarator.startsWith("&") && (inner.endsWith("&") || inner.isEmpty() && outer.isEmpty() && head.endsWith("&"))) {
                String text = inner.isEmpty() ? head : inner;
                boolean rvalue = text.endsWith("&&") && declarator.equals("&&");
                String collapsed = text.substring(0, text.length() - (text.endsWith("&&") ? 2 : 1)) + (rvalue ? "&&" : "&");
                return inner.isEmpty() ? new Type(collapsed, "", "", function, array) : new Type(head, collapsed, outer, function, array);
            }
            return new Type(head, inner + declarator, outer, false, array); // a pointer to a function is no function
        }
    }

    /** A parsed name: how it reads, and the last plain name in it (a constructor's name). */
    private record Name(String text, String last, boolean templated, String qualifiers) {}

    private static final class Parser {
        private static final String PACK = "\u0001";
        private static final java.util.regex.Pattern DECLARATOR = java.util.regex.Pattern.compile(" const| volatile| restrict|\\*|&&|&");
        private static final java.util.regex.Pattern DECLARATORS = java.util.regex.Pattern.compile("( const| volatile| restrict|\\*|&&|&)*");

        private final String s;
        private int pos;
        private int depth;
        private final List<Type> subs = new ArrayList<>();
        private List<Type> templateArgs = List.of();
        /** Per template argument: the elements of an argument pack, null for a single argument. */
        private List<List<Type>> templatePacks = List.of();
        /** The pack a {@code Dp} expands, once a template parameter inside it names one. */
        private List<Type> expanding;
        private boolean inExpansion;

        Parser(String s) {
            this.s = s;
        }

        String whole() throws Unsupported {
            pos = 2;
            String text = encoding();
            StringBuilder out = new StringBuilder(text);
            // Clones a compiler made of the function: ".cold", ".isra.0", ".constprop.0".
            while (peek() == '.') {
                int start = pos++;
                if (Character.isLowerCase(peek()) || peek() == '_') {
                    while (Character.isLowerCase(peek()) || peek() == '_') {
                        pos++;
                    }
                } else if (Character.isDigit(peek())) {
                    while (Character.isDigit(peek())) {
                        pos++;
                    }
                } else {
                    throw new Unsupported();
                }
                while (peek() == '.' && Character.isDigit(peek(1))) {
                    pos++;
                    while (Character.isDigit(peek())) {
                        pos++;
                    }
                }
                out.append(" [clone ").append(s, start, pos).append(']');
            }
            if (pos != s.length()) {
                throw new Unsupported();
            }
            return out.toString();
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : 0;
        }

        private char peek(int ahead) {
            return pos + ahead < s.length() ? s.charAt(pos + ahead) : 0;
        }

        private void expect(char c) throws Unsupported {
            if (peek() != c) {
                throw new Unsupported();
            }
            pos++;
        }

        private void enter() throws Unsupported {
            if (++depth > MAX_DEPTH) {
                throw new Unsupported();
            }
        }

        private static String bounded(String text) throws Unsupported {
            if (text.length() > MAX_DEMANGLED) {
                throw new Unsupported();
            }
            return text;
        }

        /** {@code <encoding>}: a function with its parameters, a variable, or a special name. */
        private String encoding() throws Unsupported {
            return encoding(ReturnType.SHOWN);
        }

        /** Whether a function template's return type is shown: not where the function names a local entity. */
        private enum ReturnType { SHOWN, OMITTED }

        private String encoding(ReturnType shown) throws Unsupported {
            enter();
            try {
                if (peek() == 'T' || peek() == 'G') {
                    return special();
                }
                List<Type> outerArgs = templateArgs;
                List<List<Type>> outerPacks = templatePacks;
                Name name = name();
                if (pos >= s.length() || peek() == 'E' || peek() == '.') {
                    return name.text; // a variable
                }
                String returned = "";
                boolean ctorLike = name.last.isEmpty();
                if (name.templated && !ctorLike) {
                    String type = type().render();
                    returned = shown == ReturnType.SHOWN ? type + " " : "";
                }
                String params = parameters();
                String text = bounded(returned + name.text + params + name.qualifiers);
                templateArgs = outerArgs;
                templatePacks = outerPacks;
                return text;
            } finally {
                depth--;
            }
        }

        /** A function's parameters up to the end of its encoding: {@code (int, char)}, {@code ()} for void. */
        private String parameters() throws Unsupported {
            if (peek() == 'v' && (pos + 1 == s.length() || peek(1) == 'E' || peek(1) == '.')) {
                pos++;
                return "()";
            }
            if (pos >= s.length() || peek() == 'E' || peek() == '.') {
                throw new Unsupported(); // a return type and no parameters
            }
            List<String> params = new ArrayList<>();
            while (pos < s.length() && peek() != 'E' && peek() != '.') {
                String p = type().render();
                if (!p.isEmpty()) {
                    params.add(p);
                }
            }
            return "(" + String.join(", ", params) + ")";
        }

        private String special() throws Unsupported {
            char kind = s.charAt(pos++);
            char what = s.charAt(pos++);
            if (kind == 'T') {
                switch (what) {
                    case 'V': return "vtable for " + type().render();
                    case 'T': return "VTT for " + type().render();
                    case 'I': return "typeinfo for " + type().render();
                    case 'S': return "typeinfo name for " + type().render();
                    case 'H': return "TLS init function for " + name().text;
                    case 'W': return "TLS wrapper function for " + name().text;
                    case 'h':
                        callOffset('h');
                        return "non-virtual thunk to " + encoding();
                    case 'v':
                        callOffset('v');
                        return "virtual thunk to " + encoding();
                    case 'c':
                        callOffset(s.charAt(pos++));
                        callOffset(s.charAt(pos++));
                        return "covariant return thunk to " + encoding();
                    default: throw new Unsupported();
                }
            }
            switch (what) {
                case 'V': return "guard variable for " + name().text;
                case 'T':
                    if (peek() == 't') {
                        pos++;
                        return "transaction clone for " + encoding();
                    }
                    if (peek() == 'n') {
                        pos++;
                        return "non-transaction clone for " + encoding();
                    }
                    throw new Unsupported();
                default: throw new Unsupported();
            }
        }

        /** A thunk's offset: {@code h <number> _} or {@code v <number> _ <number> _}; only skipped. */
        private void callOffset(char kind) throws Unsupported {
            number();
            expect('_');
            if (kind == 'v') {
                number();
                expect('_');
            } else if (kind != 'h') {
                throw new Unsupported();
            }
        }

        private long number() throws Unsupported {
            boolean negative = peek() == 'n';
            if (negative) {
                pos++;
            }
            int start = pos;
            while (Character.isDigit(peek())) {
                pos++;
            }
            if (start == pos || pos - start > 18) {
                throw new Unsupported();
            }
            long n = Long.parseLong(s, start, pos, 10);
            return negative ? -n : n;
        }

        /** {@code <name>}: nested, local, or unscoped, with template arguments. */
        private Name name() throws Unsupported {
            enter();
            try {
                char c = peek();
                if (c == 'N') {
                    return nested();
                }
                if (c == 'Z') {
                    return local();
                }
                String prefix = "";
                if (c == 'S' && peek(1) == 't') {
                    pos += 2;
                    prefix = "std::";
                }
                Name unqualified;
                if (c == 'S' && prefix.isEmpty()) {
                    Type sub = substitution();
                    unqualified = new Name(sub.render(), lastOf(sub.render()), false, "");
                    if (peek() != 'I') {
                        throw new Unsupported(); // a substitution alone is no name
                    }
                } else {
                    unqualified = unqualified(prefix);
                }
                if (peek() == 'I') {
                    if (!(c == 'S' && prefix.isEmpty())) {
                        subs.add(Type.plain(unqualified.text));
                    }
                    String args = templateArgsAtName();
                    return new Name(bounded(unqualified.text + (unqualified.text.endsWith("<") ? " " : "") + args),
                            unqualified.last, true, "");
                }
                return unqualified;
            } finally {
                depth--;
            }
        }

        /** An unqualified name with {@code prefix} before it; constructors and destructors are not found here. */
        private Name unqualified(String prefix) throws Unsupported {
            String part = unqualifiedPart("");
            return new Name(prefix + part, part, false, "");
        }

        /** One component of a name: a source name, an operator, a lambda, with its ABI tags. */
        private String unqualifiedPart(String enclosing) throws Unsupported {
            char c = peek();
            String text;
            if (c == 'L' && Character.isDigit(peek(1))) {
                pos++; // internal linkage
                c = peek();
            }
            if (Character.isDigit(c)) {
                text = sourceName();
            } else if (c == 'C' && (peek(1) == '1' || peek(1) == '2' || peek(1) == '3' || peek(1) == 'I')) {
                pos += 2;
                if (s.charAt(pos - 1) == 'I') {
                    pos++;
                    type();
                }
                if (enclosing.isEmpty()) {
                    throw new Unsupported();
                }
                text = enclosing;
            } else if (c == 'D' && (peek(1) == '0' || peek(1) == '1' || peek(1) == '2' || peek(1) == '4' || peek(1) == '5')) {
                pos += 2;
                if (enclosing.isEmpty()) {
                    throw new Unsupported();
                }
                text = "~" + enclosing;
            } else if (c == 'U' && peek(1) == 'l') {
                pos += 2;
                String params = parameters();
                expect('E');
                text = "{lambda" + params + "#" + (discriminatorNumber() + 1) + "}";
            } else if (c == 'U' && peek(1) == 't') {
                pos += 2;
                text = "{unnamed type#" + (discriminatorNumber() + 1) + "}";
            } else if (Character.isLowerCase(c)) {
                text = operator();
            } else {
                throw new Unsupported();
            }
            while (peek() == 'B') {
                pos++;
                text += "[abi:" + sourceName() + "]";
            }
            return text;
        }

        /** {@code [<number>] _} after a lambda or an unnamed type: 0 for the first. */
        private int discriminatorNumber() throws Unsupported {
            int n = 0;
            if (peek() != '_') {
                n = (int) number() + 1;
            }
            expect('_');
            return n;
        }

        private String sourceName() throws Unsupported {
            long length = number();
            if (length <= 0 || pos + length > s.length()) {
                throw new Unsupported();
            }
            String id = s.substring(pos, pos + (int) length);
            pos += (int) length;
            return id.startsWith("_GLOBAL_") && id.length() > 9 && "._$".indexOf(id.charAt(8)) >= 0 && id.charAt(9) == 'N'
                    ? "(anonymous namespace)" : id;
        }

        private String operator() throws Unsupported {
            String code = s.substring(pos, Math.min(pos + 2, s.length()));
            pos += 2;
            String name = switch (code) {
                case "nw" -> "new";
                case "na" -> "new[]";
                case "dl" -> "delete";
                case "da" -> "delete[]";
                case "ps", "pl" -> "+";
                case "ng", "mi" -> "-";
                case "ad", "an" -> "&";
                case "de", "ml" -> "*";
                case "co" -> "~";
                case "dv" -> "/";
                case "rm" -> "%";
                case "or" -> "|";
                case "eo" -> "^";
                case "aS" -> "=";
                case "pL" -> "+=";
                case "mI" -> "-=";
                case "mL" -> "*=";
                case "dV" -> "/=";
                case "rM" -> "%=";
                case "aN" -> "&=";
                case "oR" -> "|=";
                case "eO" -> "^=";
                case "ls" -> "<<";
                case "rs" -> ">>";
                case "lS" -> "<<=";
                case "rS" -> ">>=";
                case "eq" -> "==";
                case "ne" -> "!=";
                case "lt" -> "<";
                case "gt" -> ">";
                case "le" -> "<=";
                case "ge" -> ">=";
                case "ss" -> "<=>";
                case "nt" -> "!";
                case "aa" -> "&&";
                case "oo" -> "||";
                case "pp" -> "++";
                case "mm" -> "--";
                case "cm" -> ",";
                case "pm" -> "->*";
                case "pt" -> "->";
                case "cl" -> "()";
                case "ix" -> "[]";
                case "qu" -> "?";
                case "cv" -> null;
                case "li" -> null;
                default -> throw new Unsupported();
            };
            if (code.equals("cv")) {
                return "operator " + type().render();
            }
            if (code.equals("li")) {
                return "operator\"\" " + sourceName();
            }
            return "operator" + (Character.isLetter(name.charAt(0)) ? " " : "") + name;
        }

        /** {@code N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E}. */
        private Name nested() throws Unsupported {
            expect('N');
            String qualifiers = cvQualifiers() + refQualifier();
            StringBuilder text = new StringBuilder();
            String last = "";
            boolean templated = false;
            boolean constructor = false;
            while (peek() != 'E') {
                if (pos >= s.length()) {
                    throw new Unsupported();
                }
                templated = false;
                char c = peek();
                if (c == 'S' && peek(1) == 't' && text.isEmpty()) {
                    pos += 2;
                    text.append("std");
                    continue;
                }
                if (c == 'S' && text.isEmpty()) {
                    Type sub = substitution();
                    text.append(sub.render());
                    last = lastOf(sub.render());
                    if (peek() != 'E') {
                        continue;
                    }
                    break;
                }
                if (c == 'T' && text.isEmpty()) {
                    Type param = templateParam();
                    text.append(param.render());
                    last = param.render();
                    subs.add(param);
                    continue;
                }
                if (c == 'I') {
                    if (text.isEmpty()) {
                        throw new Unsupported();
                    }
                    String args = templateArgsAtName();
                    text.append(text.charAt(text.length() - 1) == '<' ? " " : "").append(args);
                    templated = true;
                    if (peek() != 'E') {
                        subs.add(Type.plain(text.toString()));
                    }
                    continue;
                }
                if (c == 'M') {
                    pos++; // a closure's context (a data member's initializer): shown as its enclosing name
                    continue;
                }
                boolean ctor = c == 'C' || c == 'D' && Character.isDigit(peek(1));
                String part = unqualifiedPart(last);
                constructor = ctor;
                if (!text.isEmpty()) {
                    text.append("::");
                }
                text.append(part);
                bounded(text.toString());
                // A constructor is named after its class without the class's ABI tags.
                last = ctor ? last : part.replaceAll("(\\[abi:[^\\]]*\\])+$", "");
                if (peek() != 'E') {
                    subs.add(Type.plain(text.toString()));
                }
            }
            expect('E');
            if (text.isEmpty()) {
                throw new Unsupported();
            }
            // A constructor, destructor or conversion has no return type to read even when templated.
            String lastName = constructor || text.lastIndexOf("operator ") > text.lastIndexOf("::") ? "" : last;
            return new Name(text.toString(), lastName, templated, qualifiers);
        }

        /** The plain name a substitution ends with, for a constructor after it: {@code basic_string}. */
        private static String lastOf(String text) {
            int angle = text.indexOf('<');
            String head = angle < 0 ? text : text.substring(0, angle);
            return head.substring(head.lastIndexOf(':') + 1);
        }

        /** {@code Z <encoding> E <entity name> [<discriminator>]}. */
        private Name local() throws Unsupported {
            expect('Z');
            String function = encoding(ReturnType.OMITTED);
            expect('E');
            if (peek() == 's') {
                pos++;
                discriminator();
                return new Name(function + "::string literal", "", false, "");
            }
            if (peek() == 'd') {
                throw new Unsupported(); // a default argument's entity
            }
            Name entity = name();
            discriminator();
            return new Name(bounded(function + "::" + entity.text), entity.last, entity.templated, entity.qualifiers);
        }

        private void discriminator() throws Unsupported {
            if (peek() == '_') {
                pos++;
                if (peek() == '_') {
                    pos++;
                    number();
                    expect('_');
                } else {
                    number();
                }
            }
        }

        /** A member function's {@code R} or {@code O}: called on lvalues or rvalues only. */
        private String refQualifier() {
            if (peek() == 'R' || peek() == 'O') {
                return s.charAt(pos++) == 'R' ? " &" : " &&";
            }
            return "";
        }

        private String cvQualifiers() {
            StringBuilder q = new StringBuilder();
            boolean restrict = false;
            boolean isVolatile = false;
            boolean isConst = false;
            if (peek() == 'r') {
                pos++;
                restrict = true;
            }
            if (peek() == 'V') {
                pos++;
                isVolatile = true;
            }
            if (peek() == 'K') {
                pos++;
                isConst = true;
            }
            if (isConst) {
                q.append(" const");
            }
            if (isVolatile) {
                q.append(" volatile");
            }
            if (restrict) {
                q.append(" restrict");
            }
            return q.toString();
        }

        /** Template arguments after a name; they become the ones template parameters refer to. */
        private String templateArgsAtName() throws Unsupported {
            List<Type> args = new ArrayList<>();
            List<List<Type>> packs = new ArrayList<>();
            String text = templateArgs(args, packs);
            templateArgs = args;
            templatePacks = packs;
            return text;
        }

        /** {@code I <template-arg>+ E}, shown as {@code <a, b>}. */
        private String templateArgs(List<Type> args, List<List<Type>> packs) throws Unsupported {
            enter();
            try {
                expect('I');
                List<String> shown = new ArrayList<>();
                boolean endsWithEmptyPack = false;
                while (peek() != 'E') {
                    if (pos >= s.length()) {
                        throw new Unsupported();
                    }
                    if (peek() == 'J') {
                        pos++;
                        List<Type> pack = new ArrayList<>();
                        while (peek() != 'E') {
                            if (pos >= s.length()) {
                                throw new Unsupported();
                            }
                            pack.add(templateArg());
                        }
                        pos++;
                        List<String> elements = pack.stream().map(Type::render).filter(e -> !e.isEmpty()).toList();
                        if (!elements.isEmpty()) {
                            shown.add(String.join(", ", elements));
                        }
                        endsWithEmptyPack = elements.isEmpty();
                        args.add(Type.plain(String.join(", ", elements)));
                        packs.add(pack);
                        continue;
                    }
                    Type arg = templateArg();
                    args.add(arg);
                    packs.add(null);
                    shown.add(arg.render());
                    endsWithEmptyPack = false;
                }
                pos++;
                String joined = String.join(", ", shown);
                // As gdb shows them: "> >", except after an empty pack at the end.
                return bounded("<" + joined + (joined.endsWith(">") && !endsWithEmptyPack ? " >" : ">"));
            } finally {
                depth--;
            }
        }

        private Type templateArg() throws Unsupported {
            if (peek() == 'L') {
                return literal();
            }
            if (peek() == 'X') {
                throw new Unsupported(); // an expression
            }
            return type();
        }

        /** {@code L <type> <value> E}, {@code L _Z <encoding> E}. */
        private Type literal() throws Unsupported {
            expect('L');
            if (peek() == '_' && peek(1) == 'Z') {
                pos += 2;
                String entity = encoding();
                expect('E');
                return Type.plain(entity);
            }
            char t = peek();
            if (t == 'b' && (peek(1) == '0' || peek(1) == '1') && peek(2) == 'E') {
                pos += 3;
                return Type.plain(s.charAt(pos - 2) == '1' ? "true" : "false");
            }
            String suffix = switch (t) {
                case 'i' -> "";
                case 'j' -> "u";
                case 'l' -> "l";
                case 'm' -> "ul";
                case 'x' -> "ll";
                case 'y' -> "ull";
                default -> null;
            };
            if (suffix != null) {
                pos++;
                long n = number();
                expect('E');
                return Type.plain(n + suffix);
            }
            Type type = type();
            if (Character.isDigit(peek()) || peek() == 'n') {
                long n = number();
                expect('E');
                return Type.plain("(" + type.render() + ")" + n);
            }
            throw new Unsupported();
        }

        /** {@code S_}, {@code S <seq-id> _} or a standard abbreviation. */
        private Type substitution() throws Unsupported {
            expect('S');
            char c = peek();
            String standard = switch (c) {
                case 'a' -> "std::allocator";
                case 'b' -> "std::basic_string";
                case 's' -> "std::basic_string<char, std::char_traits<char>, std::allocator<char> >";
                case 'i' -> "std::basic_istream<char, std::char_traits<char> >";
                case 'o' -> "std::basic_ostream<char, std::char_traits<char> >";
                case 'd' -> "std::basic_iostream<char, std::char_traits<char> >";
                default -> null;
            };
            if (standard != null) {
                pos++;
                return Type.plain(standard);
            }
            int index = c == '_' ? 0 : seqId() + 1;
            expect('_');
            if (index >= subs.size()) {
                throw new Unsupported();
            }
            return subs.get(index);
        }

        /** A base-36 sequence number of digits and capital letters. */
        private int seqId() throws Unsupported {
            int start = pos;
            long n = 0;
            while (Character.isDigit(peek()) || Character.isUpperCase(peek())) {
                n = n * 36 + Character.digit(peek(), 36);
                pos++;
                if (n > 1_000_000) {
                    throw new Unsupported();
                }
            }
            if (start == pos) {
                throw new Unsupported();
            }
            return (int) n;
        }

        /** {@code T_}, {@code T <number> _}: one of the template arguments in force. */
        private Type templateParam() throws Unsupported {
            expect('T');
            int index = 0;
            if (peek() != '_') {
                index = (int) number() + 1;
            }
            expect('_');
            if (index < 0 || index >= templateArgs.size()) {
                throw new Unsupported();
            }
            List<Type> pack = templatePacks.get(index);
            if (pack != null && inExpansion) {
                if (expanding != null && expanding != pack) {
                    throw new Unsupported();
                }
                expanding = pack;
                return Type.plain(PACK);
            }
            return templateArgs.get(index);
        }

        private static String builtin(char c) {
            return switch (c) {
                case 'v' -> "void";
                case 'w' -> "wchar_t";
                case 'b' -> "bool";
                case 'c' -> "char";
                case 'a' -> "signed char";
                case 'h' -> "unsigned char";
                case 's' -> "short";
                case 't' -> "unsigned short";
                case 'i' -> "int";
                case 'j' -> "unsigned int";
                case 'l' -> "long";
                case 'm' -> "unsigned long";
                case 'x' -> "long long";
                case 'y' -> "unsigned long long";
                case 'n' -> "__int128";
                case 'o' -> "unsigned __int128";
                case 'f' -> "float";
                case 'd' -> "double";
                case 'e' -> "long double";
                case 'g' -> "__float128";
                case 'z' -> "...";
                default -> null;
            };
        }

        private Type type() throws Unsupported {
            enter();
            try {
                return typeInner();
            } finally {
                depth--;
            }
        }

        private Type typeInner() throws Unsupported {
            char c = peek();
            String simple = builtin(c);
            if (simple != null) {
                pos++;
                return Type.plain(simple);
            }
            Type t;
            switch (c) {
                case 'D': {
                    String d = switch (peek(1)) {
                        case 'n' -> "decltype(nullptr)";
                        case 'i' -> "char32_t";
                        case 's' -> "char16_t";
                        case 'u' -> "char8_t";
                        case 'a' -> "auto";
                        case 'c' -> "decltype(auto)";
                        case 'd' -> "decimal64";
                        case 'e' -> "decimal128";
                        case 'f' -> "decimal32";
                        case 'h' -> "half";
                        default -> null;
                    };
                    if (d != null) {
                        pos += 2;
                        return Type.plain(d);
                    }
                    if (peek(1) == 'p') {
                        pos += 2;
                        t = expansion();
                        break;
                    }
                    throw new Unsupported(); // decltype, vector types and the like
                }
                case 'r', 'V', 'K': {
                    String q = cvQualifiers();
                    Type inner = type();
                    if (inner.function) {
                        t = new Type(inner.head, inner.inner, inner.outer + q, true, false);
                    } else if (inner.array && inner.inner.isEmpty()) {
                        t = new Type(inner.head + q, "", inner.outer, false, true); // its elements are const
                    } else if (!inner.inner.isEmpty() || !inner.outer.isEmpty()) {
                        t = inner.with(q);
                    } else {
                        t = Type.plain(inner.head + q);
                    }
                    break;
                }
                case 'P', 'R', 'O':
                    pos++;
                    t = type().with(c == 'P' ? "*" : c == 'R' ? "&" : "&&");
                    break;
                case 'F':
                    t = functionType();
                    break;
                case 'A':
                    t = arrayType();
                    break;
                case 'M': {
                    pos++;
                    Type owner = type();
                    Type member = type();
                    if (!member.outer.isEmpty()) {
                        t = new Type(member.head, owner.render() + "::*" + member.inner, member.outer, member.function, member.array);
                    } else {
                        t = new Type(member.head + member.inner + " " + owner.render() + "::*", "", "", false, false);
                    }
                    break;
                }
                case 'T': {
                    t = templateParam();
                    subs.add(t);
                    if (peek() == 'I') {
                        List<Type> args = new ArrayList<>();
                        t = Type.plain(t.render() + templateArgs(args, new ArrayList<>()));
                        subs.add(t);
                    }
                    return t;
                }
                case 'S': {
                    if (peek(1) == 't') {
                        t = Type.plain(typeName());
                        break;
                    }
                    t = substitution();
                    if (peek() == 'I') {
                        t = Type.plain(t.render() + templateArgs(new ArrayList<>(), new ArrayList<>()));
                        break;
                    }
                    return t; // a substitution is not added again
                }
                case 'N', 'Z':
                    t = Type.plain(typeName());
                    break;
                case 'U':
                    throw new Unsupported(); // a vendor qualifier
                default:
                    if (Character.isDigit(c)) {
                        t = Type.plain(typeName());
                        break;
                    }
                    throw new Unsupported();
            }
            bounded(t.render());
            subs.add(t);
            return t;
        }

        /** A class or enum type's name: its template arguments are not the ones template parameters refer to. */
        private String typeName() throws Unsupported {
            List<Type> args = templateArgs;
            List<List<Type>> packs = templatePacks;
            String text = name().text;
            templateArgs = args;
            templatePacks = packs;
            return text;
        }

        /** {@code Dp <type>}: a pack expansion, shown as its elements one after the other. */
        private Type expansion() throws Unsupported {
            List<Type> outerPack = expanding;
            boolean outerIn = inExpansion;
            expanding = null;
            inExpansion = true;
            try {
                String pattern = type().render();
                if (expanding == null) {
                    throw new Unsupported();
                }
                List<String> elements = new ArrayList<>();
                java.util.regex.Matcher declarators = DECLARATORS.matcher(pattern);
                for (Type element : expanding) {
                    if (pattern.startsWith(PACK) && declarators.reset(pattern).region(PACK.length(), pattern.length()).matches()) {
                        // Declarators on the parameter itself apply to each element as to any type: T&& of a U& is a U&.
                        Type t = element;
                        java.util.regex.Matcher each = DECLARATOR.matcher(pattern).region(PACK.length(), pattern.length());
                        while (each.find()) {
                            String d = each.group();
                            t = d.startsWith(" ") && t.inner.isEmpty() && t.outer.isEmpty() ? Type.plain(t.head + d) : t.with(d);
                        }
                        elements.add(t.render());
                    } else {
                        elements.add(pattern.replace(PACK, element.render()));
                    }
                }
                return Type.plain(bounded(String.join(", ", elements)));
            } finally {
                expanding = outerPack;
                inExpansion = outerIn;
            }
        }

        /** {@code F [Y] <return type> <parameters> [<ref-qualifier>] E}. */
        private Type functionType() throws Unsupported {
            expect('F');
            if (peek() == 'Y') {
                pos++;
            }
            Type returned = type();
            if (!returned.outer.isEmpty()) {
                throw new Unsupported(); // a function returning a function pointer
            }
            String params;
            if (peek() == 'v' && peek(1) == 'E') {
                pos++;
                params = "()";
            } else {
                List<String> list = new ArrayList<>();
                while (peek() != 'E' && !(peek() == 'R' && peek(1) == 'E') && !(peek() == 'O' && peek(1) == 'E')) {
                    if (pos >= s.length()) {
                        throw new Unsupported();
                    }
                    String p = type().render();
                    if (!p.isEmpty()) {
                        list.add(p);
                    }
                }
                params = "(" + String.join(", ", list) + ")";
            }
            params += refQualifier();
            expect('E');
            return new Type(returned.render(), "", params, true, false);
        }

        /** {@code A [<number>] _ <element type>}. */
        private Type arrayType() throws Unsupported {
            expect('A');
            String bound = "";
            if (Character.isDigit(peek())) {
                bound = Long.toString(number());
            } else if (peek() != '_') {
                throw new Unsupported(); // a bound given by an expression
            }
            expect('_');
            Type element = type();
            if (!element.outer.isEmpty()) {
                if (!element.array || !element.inner.isEmpty()) {
                    throw new Unsupported();
                }
                return new Type(element.head, "", "[" + bound + "]" + element.outer, false, true);
            }
            return new Type(element.render(), "", "[" + bound + "]", false, true);
        }
    }
}
