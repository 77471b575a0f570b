// Package usercache names Ripple's user cache and bounds it.
//
// The cache is $RIPPLE_CACHE, else the user cache directory's ripple
// folder (~/.cache/ripple on Linux); RIPPLE_CACHE=off turns the type
// cache off. It holds the type checker's export data (types/, written
// by internal/lang/golang), the tools Ripple installs with npm
// (typescript/, pyright/, internal/oracle: always under the user cache
// directory), the word index of each repository (words/,
// internal/gitio), the tarballs of the npm packages a dependency bump
// compared (npm/, internal/lang/typescript), the wheels and sdists of the
// Python distributions one compared (pypi/, internal/lang/python), the class-data archive of javac's own classes that
// makes its start faster (javac/, internal/lang/java/javac) and the
// background warm-up's lock and log.
//
// The type cache is capped (MaxBytes: 300 MB unless RIPPLE_CACHE_MAX
// says otherwise): what writes it removes the entries used least
// recently once it grows past the cap. The installed tools are never
// trimmed; `hook cache clean` removes everything, tools included.
package usercache
