// Package javac is the Java oracle and the Java front-end's type-precise
// check: the JDK's javac (17 here; 11 or newer) run on a work tree, its
// diagnostics parsed into oracle.Diagnostic.
//
// Discover reads the build: Maven (pom.xml, its <modules> recursively,
// each module's source and test roots, its <dependencies> with property
// substitution and versions from the parents' and imported BOMs'
// <dependencyManagement> where those poms are in the work tree or the
// local repository), Gradle (settings.gradle(.kts) includes, src/*/java
// source sets, project(...) and "group:name:version" dependencies), and
// plain folders (a file's root is its folder minus its package's). The
// jars come only from what is on this machine: ~/.m2/repository,
// Gradle's cache (~/.gradle/caches/modules-2/files-2.1), and a module's
// target/dependency, lib and libs folders. Maven is never run (a
// `mvn -o dependency:build-classpath` needs the dependency plugin in the
// local repository and a JVM start of its own) and no network is used.
// A dependency with no jar here is recorded as Missing.
//
// Compiler.Check (oracle.Oracle) compiles the modules holding the
// change's Java files and the modules depending on them, each with
// -sourcepath over its roots and its dependency modules' roots, with
// -proc:none -implicit:none, the pom's encoding and Java level
// (--release for maven.compiler.release, -source for a source level),
// into a scratch folder that is removed; the work tree is never written.
// Compiler.CheckSites is the type tier: only the site and changed files
// are compiled, javac reading what they reference through -sourcepath,
// and each file gets a verdict. A javac stopped by the context's
// deadline still yields the errors it had printed (Sites.Stopped, its
// last, possibly cut-off diagnostic dropped): each is javac's, while
// its silence on the files of that module proves nothing.
//
// What it proves: a file that compiles, in a module whose dependencies
// all resolved, is consistent by javac's types (overloads, generics,
// inherited members, checked exceptions included).
//
// What it cannot prove:
//   - Code that needs a jar that is not here. javac calls such code
//     broken ("package org.foo does not exist", "cannot find symbol" of
//     the jar's classes and of members inherited from them); those errors
//     are set apart (missing.go), the result's Unanalysed names the jars
//     and files, and a pass then proves nothing of those files. When a
//     module's dependencies are all present nothing is set apart: every
//     error is the code's. The attribution reads imports, type headers
//     and supertype names, not javac's symbols: a member missing from a
//     type javac knew whole counts wherever it is looked up, but an
//     error of the code's own that only an unknown type's neighbourhood
//     can explain (an unqualified call in a class whose supertype is
//     unknown, an exception thrown in a lambda given to an unknown
//     method) is set apart with the rest: incomplete, never proven.
//   - Annotation processing (-proc:none): code that uses what a processor
//     generates (Lombok's accessors, AutoValue_ classes, Dagger
//     components, MapStruct mappers) fails to compile here, and those
//     errors are the state's at the base too (the baseline excuses them,
//     but they prove nothing).
//   - Sources generated at build time other than templating-maven-plugin's
//     src/main/java-templates (protobuf, ANTLR, build-config classes).
//   - module-info.java (JPMS descriptors): not compiled; the sources are
//     compiled on the classpath.
//   - Maven profiles, Gradle version catalogs and Gradle dependencies
//     whose version is a variable (recorded as Missing or in Notes).
//   - A Java level newer than the installed javac: compiled at javac's
//     own level, and Unanalysed says so when errors result.
//   - A changed Java file no javac compiled (under no source root, in a
//     build output folder, excluded by the compiler plugin, a
//     module-info.java): Unanalysed names it.
//   - Tests are compiled, never run (Options.Tests is not honoured).
//
// javac runs with the JVM's quick compiler only, the serial collector
// and, after the first run, a class-data archive of its own classes in
// the user cache (cds.go); flow analysis runs even when attribution
// found errors, and javac stops after it (nothing is generated).
package javac
