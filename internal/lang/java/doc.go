// Package java is Ripple's Java front-end: it reads Java declarations
// for the classifier and answers impact queries for the driver, with the
// same contract, verdicts and precisions as the other front-ends. This
// is the syntactic tier: every finding is established from syntax
// (PrecisionSyntax) or from a name alone (PrecisionName, never an
// error). Its oracle is javac (package javac, Frontend.Oracle), and a
// type-precise tier with javac (javactier.go, javacsettle.go) settles the
// warnings the syntax leaves: javac's error at a site that concerns the
// change is an error, a file javac compiled whole is consistent, and a
// site whose file lacked a jar keeps the syntax's verdict and says so
// (docs/java.md). A javac stopped at the time budget proves the sites
// it had reported errors at; the others keep the syntax's verdict. Mechanical fixes of arity-broken calls are fixes.go.
//
// # Parsing (frontend.go, parse_cgo.go, parse_nocgo.go, syntax.go)
//
// Parser: tree-sitter's Java grammar, github.com/tree-sitter/tree-sitter-java
// v0.23.5 (Java 21: records, sealed types, switch patterns, text blocks),
// through the shared flat copy of internal/lang/treesit. The grammar is
// C: parse_cgo.go sets treesit.Grammar.Load, and a binary built with
// CGO_ENABLED=0 (parse_nocgo.go) makes one diagnostic per Java file and
// no findings, as Python and TypeScript do.
//
// syntax.go summarizes a file once (jfile): its package, its imports
// (single-type, wildcard, static) and every type it declares, nested
// ones included (jtype: class, interface, record, enum, annotation, with
// modifiers, annotations, type parameters, superclass and interfaces),
// each with its methods and constructors (jmethod: modifiers, type
// parameters, parameter types, return type, throws) and fields (jfield:
// declarators of field declarations, enum constants, record components).
// A record's canonical constructor is a constructor whether or not the
// source writes it. Modifiers Java implies are made explicit (an
// interface method is public, and abstract unless default, static or
// private; a nested interface, enum or record is static), so that
// writing them out is no change. A file that does not parse is a partial
// diagnostic: declarations inside ERROR nodes are skipped, the others
// kept. A file that is not UTF-8 is read byte by byte, with a diagnostic.
//
// # Declarations (decls.go, details.go)
//
// Every type, method, constructor and field is a block; Container is the
// enclosing type's qualified name within the file (Outer.Inner), Package
// the Java package (the default package is keyed by folder). Sig is what
// dependents rely on: a method's access, static/abstract/default/final,
// type parameters, return type, parameter types (not names) and throws;
// a field's access, static, final and type; a type's access, kind,
// abstract/final/static/sealed, type parameters, supertypes and a
// record's components. Body is the rest (parameter names included, so a
// renamed parameter is a body change). Annotations are not in Sig.
//
// Overloads share their key (Container.Name); their Display names the
// parameter types (method Calc.add(int, int)). The classifier pairs the
// states of one key within a file unchanged first, then by equal Sig,
// then in order (diffclassify.pairSides), so that one overload changed
// is one MMS and the others are no change.
//
// Details says what changed in the words of the other front-ends:
// "parameter int c added", "parameter 1 (n) retyped from int to long",
// "return type changed from int to long", "became static", "visibility
// changed from public to private", "throws IOException added". Body
// changes have no escapes: the syntactic tier does not follow what a
// body returns or throws to the callers.
//
// # Resolution (index.go, resolve.go, scope.go)
//
// The index lists the head state's Java files once and searches them
// with the shared word search (corpus, git grep); files are parsed on
// demand, the search's candidates first, then each file that resolving a
// name reaches. A fully qualified name is found as javac finds a public
// top-level type: in the files named after it (Outer.java for
// com.x.Outer.Inner) whose package declaration matches, whatever the
// folder layout: Maven (src/main/java, src/test/java), Gradle source sets
// (src/NAME/java), multi-module builds, and plain folders that do not
// mirror packages alike. Of several declarations of one name (one per
// module), the one in the referring file's module is preferred; the
// source root is derived from the package declaration and the file path
// (sourceRoot, module).
//
// A simple type name resolves in Java's order: the enclosing types and
// their member types (inherited ones from repository supertypes), the
// file's own types, single-type imports, the file's package, wildcard
// imports. A name none of these finds in the repository is outside it
// (the JDK, a dependency): it cannot be, nor derive from, a repository
// type, so calls on it are not the repository's.
//
// An expression's type is what the syntax declares: a local variable or
// parameter's declared type (var: its initializer's), a field of the
// enclosing types or of a receiver, a type name (a static receiver),
// this, super, new T(...), a cast, and the return type of a repository
// method (a builder chain) when its overload is unambiguous by arity. A
// lambda parameter, an inferred var, a call of a method outside the
// repository or of a generic method returning a type variable is
// unknown, and says why.
//
// # Relations and verdicts (analyzer.go, calls.go, args.go, ctors.go, hier.go, uses.go, typechange.go)
//
// The analyzer turns each change into a target (its base and head
// declarations, the head state of its type) and hands it to a judge, a
// view of the analyzer per concept: callJudge (calls, method references,
// static imports), ctorJudge (constructors), hierJudge (overrides,
// implementers), useJudge (fields, deleted and changed types); binder
// decides what a use binds to (the receiver of an unqualified call, the
// overloads a receiver sees, whether arguments fit, access). A member's
// uses are searched only in files that hold its name and name its type
// or a subtype, or share its package.
//
// Each query is answered along the relations it asks for:
//
//   - CalledBy of a changed or deleted method (calls.go): calls
//     x.m(...), C.m(...), m(...) (bound in the innermost enclosing type
//     that has an m, else through a static import), super.m(...), and
//     method references C::m, x::m. A call binds among the overloads its
//     receiver's type sees (its repository ancestors included) by arity
//     and, where the syntax gives an argument's type (a literal, or a
//     type that resolves, for a parameter of a repository type), by type
//     (args.go). The ladder:
//     an error where the receiver's type resolved to the class (or a
//     subclass), the old method took the call and no overload of the new
//     set does (arity mismatch, deleted); also a static call of a method
//     no longer static, and a call from where the method is no longer
//     accessible. A warning where the call still binds but the signature
//     changed (a parameter or return type), where another overload of
//     that arity remains (ambiguous), where a supertype outside the
//     repository may declare an overload, where the receiver's type is
//     unknown (PrecisionName, with what was missing), and for a method
//     reference of a changed method (its functional interface is not
//     read). A call updated to the new arity is consistent. Calls on a
//     type outside the repository are not reported.
//   - ImportedBy of a deleted method or field: its single static
//     imports (an error).
//   - CalledBy and InstantiatedBy of a constructor (ctors.go): new C(...)
//     (anonymous subclasses included), super(...) in a subclass
//     constructor, this(...) in the class, and the implicit super() of a
//     subclass constructor that calls none or of a subclass without
//     constructors; judged by arity against the class's head
//     constructors (the implicit one when it declares none). An added
//     constructor that removes the implicit one breaks new C().
//   - OverriddenBy of a changed or deleted method (hier.go): overrides in
//     repository subtypes (found by searching the names of the subtypes
//     found so far; anonymous classes included) with the old parameter
//     types. An error where @Override no longer names a method, or where
//     a concrete class no longer implements an abstract method; a warning
//     where the override still matches (return type, throws changed),
//     still overrides another method, or has no @Override.
//   - Overrides of a changed method: the base methods it overrode (a
//     warning: it may no longer override them).
//   - EmbeddedBy of an abstract method added to an interface or abstract
//     class: every concrete repository subtype that neither declares it
//     nor inherits it (a default method, a superclass's method) is an
//     error; a warning when a supertype outside the repository might
//     declare it; a default or static method added breaks nobody.
//   - UsedBy of a changed or deleted field (uses.go): obj.f on a receiver
//     of the class or a subclass, f alone in such a class, a static
//     import's f. A retyped field's uses are warnings; a deleted field's
//     are errors where the receiver resolved and no other field of the
//     name is visible.
//   - ImportedBy, ReferencedBy, InstantiatedBy and EmbeddedBy of a
//     deleted (or renamed) type: its single-type imports (and imports of
//     its nested types) are errors; in its own package, where no import
//     is needed, every use of the name nothing else declares is an error
//     (in new, in extends or implements, as a type); through a wildcard
//     import, a warning.
//   - InstantiatedBy and EmbeddedBy of a type's own change (typechange.go):
//     a class that became abstract (or an interface) breaks its `new`
//     sites, one that became final its direct subclasses, and an
//     interface that became a class (or the reverse) its implementers (or
//     subclasses).
//
// # What is not judged
//
// Argument types beyond literals and resolved repository types (an int
// passed where a long is now wanted binds by widening; the syntax cannot
// tell), generic
// substitution in overrides (a type variable matches any type),
// modules' declared dependencies (any module sees any other), inherited
// members of types outside the repository, enum constants in switch
// labels, a type's supertypes or type parameters changed (MC other than
// became abstract, final, an interface or a class), a deleted import's
// remaining uses, body changes' effects on callers (no escapes), derived
// changes (an override that must follow its base is reported, not
// walked), and receivers typed only through a field inherited from
// another file (a member's uses are searched where its type is named).
package java
