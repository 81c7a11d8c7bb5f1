import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Rewrites the classes of a jar that are older than Java 6 (picocli's are Java 5, AOP Alliance's,
 * which Guice loads, older still) as Java 8 classes with stack maps: the JDK's ahead-of-time cache
 * links only classes the split verifier can check, and loading the old ones at every start costs a
 * tenth of a second.
 *
 * usage: java UpgradeClasses.java IN.jar OUT.jar PACKAGE-PREFIX... (e.g. picocli/)
 */
public final class UpgradeClasses {

    /** Java 8: a stack map that fails is an error here, not a silent fall back to the old verifier. */
    private static final int TARGET = ClassFile.JAVA_8_VERSION;

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        List<String> prefixes = List.of(args).subList(2, args.length);
        int upgraded = 0;
        // The stack maps name common super types: the jar's own classes are looked up in the jar.
        URLClassLoader jarClasses = new URLClassLoader(new URL[] {in.toUri().toURL()}, null);
        ClassFile classFile = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                        .orElse(ClassHierarchyResolver.ofResourceParsing(jarClasses))));
        try (JarFile jar = new JarFile(in.toFile());
             OutputStream file = Files.newOutputStream(out);
             JarOutputStream copy = new JarOutputStream(file)) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                byte[] bytes;
                try (InputStream stream = jar.getInputStream(entry)) {
                    bytes = stream.readAllBytes();
                }
                if (entry.getName().endsWith(".class") && prefixes.stream().anyMatch(entry.getName()::startsWith)) {
                    ClassModel model = classFile.parse(bytes);
                    if (model.majorVersion() < ClassFile.JAVA_6_VERSION) {
                        // Rebuilding every method body is what makes the library generate the stack maps.
                        ClassTransform newVersion = (builder, element) -> {
                            if (element instanceof ClassFileVersion) {
                                builder.withVersion(TARGET, 0);
                            } else {
                                builder.with(element);
                            }
                        };
                        bytes = classFile.transformClass(model,
                                newVersion.andThen(ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)));
                        upgraded++;
                    }
                }
                JarEntry written = new JarEntry(entry.getName());
                written.setTime(entry.getTime());
                copy.putNextEntry(written);
                copy.write(bytes);
                copy.closeEntry();
            }
        }
        System.out.println("UpgradeClasses: " + upgraded + " classes rewritten as Java 8 classes");
    }
}
