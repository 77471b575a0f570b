// Package model is Ripple's language-neutral vocabulary: the types every
// front-end produces and every writer consumes. It decides nothing by
// itself; it fixes what the other packages may say to each other.
//
//   - A Block is a declaration with a span: a function, method, type,
//     field, interface method, variable, constant or import. Front-ends
//     (internal/lang/...) produce blocks from source text.
//   - A Change is one atomic change between the old and the new state of a
//     block, labelled with the CodePlan vocabulary (MMS, MMB, MF, DC, ...).
//     internal/diffclassify produces changes from the seed diff.
//   - A Relation names how a site depends on a changed block (CalledBy,
//     OverriddenBy, UsedBy, InstantiatedBy, ImportedBy, EmbeddedBy). The
//     may-impact policy, which labels impact which relations, is the table
//     Impacts in this package, so that it is written down once for every
//     language; internal/propagate walks it.
//   - A Finding is one impacted site with one Verdict on a ladder
//     (Inconsistent, MayBeImpacted, MayFollow, Consistent), the Precision
//     of the analysis that produced it, what evidence it lacked (Missing),
//     and the relation Trail from the seed to the site. internal/propagate
//     produces findings; internal/report writes them.
//
// Coordinates: paths are repository-relative with forward slashes; lines
// are 1-based; columns are 1-based UTF-8 byte offsets, as in go/token.
// Lines of a site refer to the head state (what is being pushed); lines of
// an old block refer to the base state.
package model
