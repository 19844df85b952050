package org.deliqueue.obligations;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Which lines of the production sources run: the members of {@value TraceMatrix#CODE}, parsed with javac's tree API,
 * and the methods production code reaches.
 *
 * <p>Reachability is followed from the entry points, by name: a method (or constructor) is reached when it is an
 * entry point or when a reached member, a field initializer or an initializer block calls a method of that name,
 * takes a method reference of that name, or constructs its class or a subclass. The entry points are what code
 * outside the library can call: the public and protected members of public types (an interface's members are
 * public), and every {@code @Override} (called through its supertype, the JDK's included). Following calls by name
 * over-approximates what runs (two methods of one name are both reached); it never misses a call written in the
 * sources. A method that only tests, mutants or jcstress helpers call is not reached.
 */
final class ProductionCode {

    /** A method or constructor: {@code Class.name} (constructors: {@code Class.<init>}), its lines, first to last. */
    record Member(String file, String owner, String name, String key, int first, int last, boolean entryPoint,
                  Set<String> calls) {
        String display() {
            return owner + "." + (name.equals("<init>") ? owner : name);
        }
    }

    /** A field declared at class level: {@code owner.name}, its lines. */
    record Field(String file, String owner, String name, int first, int last) {
    }

    /** Where a cited line stands: in a member (reached or not), in a field declaration, or elsewhere. */
    record Place(Member member, Field field, boolean reached) {
    }

    private final List<Member> members = new ArrayList<>();
    private final List<Field> fields = new ArrayList<>();
    private final Set<String> initializerCalls = new HashSet<>();
    /** Class -> the class it extends (simple names): constructing one runs the other's constructor. */
    private final Map<String, String> superclassOf = new HashMap<>();
    private final Set<String> reached = new HashSet<>();

    /** Parses {@code files} (the production sources under {@code root}) and computes what they reach. */
    static ProductionCode parse(Path root, List<Path> files) throws IOException {
        ProductionCode code = new ProductionCode();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none"), null,
                    fm.getJavaFileObjectsFromPaths(files));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                String file = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
                unit.accept(code.new Scanner(unit, positions, file), null);
            }
        }
        code.computeReached();
        return code;
    }

    /** The member or field at {@code file:line} (a path relative to the root), and whether production reaches it. */
    Place at(String file, int line) {
        Member in = null;
        for (Member m : members) {
            if (file.equals(m.file()) && m.first() <= line && line <= m.last()
                    && (in == null || m.first() >= in.first())) {
                in = m; // the innermost: a method of a class declared inside another method
            }
        }
        if (in != null) {
            return new Place(in, null, reached.contains(in.key()));
        }
        for (Field f : fields) {
            if (file.equals(f.file()) && f.first() <= line && line <= f.last()) {
                return new Place(null, f, false);
            }
        }
        return new Place(null, null, false);
    }

    private void computeReached() {
        Deque<String> work = new ArrayDeque<>(initializerCalls);
        members.stream().filter(Member::entryPoint).map(Member::key).forEach(work::add);
        while (!work.isEmpty()) {
            String key = work.pop();
            if (!reached.add(key)) {
                continue;
            }
            if (key.startsWith(CONSTRUCTOR) && superclassOf.containsKey(key.substring(CONSTRUCTOR.length()))) {
                work.add(constructorKey(superclassOf.get(key.substring(CONSTRUCTOR.length()))));
            }
            for (Member m : members) {
                if (m.key().equals(key)) {
                    work.addAll(m.calls());
                }
            }
        }
    }

    private static final String CONSTRUCTOR = "new ";

    /** The reach key of a constructor: a method's is its name. */
    private static String constructorKey(String className) {
        return CONSTRUCTOR + className;
    }

    /** {@code Foo} of {@code a.b.Foo<T>}. */
    private static String simpleName(String type) {
        String raw = type.replaceAll("<.*", "");
        return raw.substring(raw.lastIndexOf('.') + 1);
    }

    /** Collects members, fields and calls of one compilation unit. */
    private final class Scanner extends TreeScanner<Void, Void> {
        private final CompilationUnitTree unit;
        private final SourcePositions positions;
        private final String file;
        /** Enclosing classes, innermost last: their names and whether each is public (API). */
        private final Deque<ClassTree> classes = new ArrayDeque<>();
        /** The calls of the member being scanned, or of the class-level initializers when none. */
        private Set<String> calls = initializerCalls;

        Scanner(CompilationUnitTree unit, SourcePositions positions, String file) {
            this.unit = unit;
            this.positions = positions;
            this.file = file;
        }

        private int line(long position) {
            return (int) unit.getLineMap().getLineNumber(position);
        }

        private int first(Tree t) {
            return line(positions.getStartPosition(unit, t));
        }

        private int last(Tree t) {
            return line(positions.getEndPosition(unit, t));
        }

        /** Public members of this class are API: every enclosing class is public, or an interface. */
        private boolean apiType() {
            return !classes.isEmpty() && classes.stream().allMatch(c -> c.getKind() == Tree.Kind.INTERFACE
                    || c.getModifiers().getFlags().contains(Modifier.PUBLIC));
        }

        private String owner() {
            String name = classes.isEmpty() ? "" : classes.peekLast().getSimpleName().toString();
            return name.isEmpty() ? "(anonymous)" : name;
        }

        @Override
        public Void visitClass(ClassTree c, Void unused) {
            classes.addLast(c);
            if (c.getExtendsClause() != null) {
                superclassOf.put(owner(), simpleName(c.getExtendsClause().toString()));
            }
            Set<String> outer = calls;
            calls = initializerCalls; // a class's field initializers and blocks run when the class is used
            try {
                for (Tree member : c.getMembers()) {
                    if (member instanceof VariableTree v) {
                        fields.add(new Field(file, owner(), v.getName().toString(), first(v), last(v)));
                    }
                }
                return super.visitClass(c, unused);
            } finally {
                calls = outer;
                classes.removeLast();
            }
        }

        @Override
        public Void visitMethod(MethodTree m, Void unused) {
            ClassTree in = classes.peekLast();
            Set<Modifier> flags = m.getModifiers().getFlags();
            boolean interfaceMember = in != null && in.getKind() == Tree.Kind.INTERFACE;
            boolean api = apiType() && (interfaceMember || flags.contains(Modifier.PUBLIC)
                    || flags.contains(Modifier.PROTECTED));
            boolean override = m.getModifiers().getAnnotations().stream()
                    .anyMatch(a -> a.getAnnotationType().toString().equals("Override"));
            boolean constructor = m.getName().contentEquals("<init>");
            Set<String> own = new HashSet<>();
            members.add(new Member(file, owner(), m.getName().toString(),
                    constructor ? constructorKey(owner()) : m.getName().toString(),
                    first(m), last(m), api || override, own));
            Set<String> outer = calls;
            calls = own;
            try {
                return super.visitMethod(m, unused);
            } finally {
                calls = outer;
            }
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
            Tree callee = call.getMethodSelect();
            if (callee instanceof IdentifierTree id) {
                calls.add(id.getName().toString());
            } else if (callee instanceof MemberSelectTree select) {
                calls.add(select.getIdentifier().toString());
            }
            return super.visitMethodInvocation(call, unused);
        }

        @Override
        public Void visitNewClass(NewClassTree n, Void unused) {
            calls.add(constructorKey(simpleName(n.getIdentifier().toString())));
            return super.visitNewClass(n, unused);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree ref, Void unused) {
            calls.add(ref.getMode() == MemberReferenceTree.ReferenceMode.NEW
                    ? constructorKey(simpleName(ref.getQualifierExpression().toString()))
                    : ref.getName().toString());
            return super.visitMemberReference(ref, unused);
        }
    }
}
