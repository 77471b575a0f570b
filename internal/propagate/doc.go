// Package propagate walks the may-impact relations of the seed's atomic
// changes through the repository and settles one verdict per impacted
// site. It is the one place where relations are walked; front-ends only
// answer queries.
//
// The walk, the same for every language:
//
//  1. For each change, the relations to follow come from the may-impact
//     table model.Impacts (CodePlan's Table 1 in both directions: a
//     method's signature reaches its callers, the methods it overrides
//     and the methods that override it); a body change only when it
//     escapes (Relations).
//  2. The changes of one front-end are asked together, one lang.Query per
//     change, of that front-end's Analyzer (one search, one parse pool,
//     one type check per round). The analyzer answers lang.Refs: a site,
//     its relation, its verdict and precision, the reason, what evidence
//     was missing, a mechanical fix.
//  3. A ref whose enclosing declaration must change too (Follow: a
//     wrapper that forwards a changed parameter, an override of a changed
//     method, an implementation of a changed interface method) becomes a
//     derived change, related to its cause by the ref's relation (Via),
//     and is asked about in a later round, up to MaxDepth hops; each
//     block is derived once.
//  4. Rounds go by rung (Rung: the highest verdict a change's dependents
//     can have once Cap applies): the seed's own changes first, always,
//     whatever the deadline; then derived changes that could reach
//     errors, then warnings, then the farther frontier (notes), breadth
//     first within a rung. Input.Deadline (the budget, less the report's
//     reserve) ends the rounds of derived changes: those not asked, and
//     a round it interrupts, are counted in Output.Unwalked by rung, so
//     that a cut loses notes before warnings and warnings before errors,
//     and running out of time is never an error of the walk. A report
//     that shows no notes skips the frontier altogether (SkipFrontier).
//
// The verdict ladder:
//
//   - Inconsistent (provably broken) sites are errors. They stay errors
//     even when the diff touched them: touched but still broken is broken.
//   - May-be-impacted sites of the developer's own changes are warnings
//     (or the level configured for their relation; callers of a body
//     change use the pseudo-relation "body", a note by default).
//   - The farther frontier (MayFollow: a caller of a wrapper or an
//     implementation that must follow, a caller of a function that gained
//     an optional parameter) is a note, shown in CI and -verbose and
//     planned by the fix engine, never blocking. The analyzer decides
//     between the two: a site reached through a derived change that it can
//     show will break once the derived change is made (a call that will
//     not bind to the signature an implementation must take) is
//     may-be-impacted with that reason, the rest is the frontier.
//   - A derived change that came from a may-be-impacted site (a base
//     method that may have to follow an override's new signature) is
//     tentative: the analyzer still judges its dependents as if it were
//     certain, and the walk lowers them one rung (Cap): what it would
//     break may be impacted (a sibling override, a call dispatched through
//     the base), and after a second uncertain step only the frontier.
//   - A may-be-impacted or frontier site whose lines the diff also edited
//     is Consistent: the developer has looked at it. Consistent sites have
//     level none and appear only in verbose output.
//   - A relation switched off ("none") drops its findings entirely.
//   - The severity policy is config.FindingLevel, passed in as Level.
//
// Settling: sites in ignored paths are dropped; one site (line) reported
// twice for the same change and rule is reported once, at its strongest
// verdict and best precision, with the fixes of every use on the line
// merged; a finding in a generated file (by header or by the generated
// globs) says "regenerate it", once. Findings below error of one change
// that share a rule, a level and a reason are aggregated into one when
// there are more than AggregateAbove of them (Finding.Also lists the
// other sites), or from two on when the front-end asked for them to be
// gathered (lang.Ref.Gather: a reason it knows many sites share). The
// finding that stands for them is the first outside test files
// (lang.Declarer.IsTest), so that production code is what a reader sees
// first.
//
// Over-approximation: an analyzer may report a site as may-be-impacted
// when it cannot resolve the receiver; it must not report an error it
// cannot justify from syntax or types. This package never upgrades a
// verdict.
package propagate
