// Package propagate walks the may-impact relations of the seed's atomic
// changes through the repository and settles one verdict per impacted
// site.
//
// It is language-neutral: for each front-end with changes it asks the
// front-end's Analyzer for the sites related to the changes by the
// relations of model.Impacts, then walks the derived changes the analyzer
// returns (a wrapper whose signature must follow the seed) up to MaxDepth
// hops, so that the callers of the wrapper are found too.
//
// Policy, the same for every language:
//
//   - Inconsistent (provably broken) sites are errors. They stay errors
//     even when the diff touched them: touched but still broken is broken.
//   - May-be-impacted sites take the level configured for their relation
//     (callers of a body change use the pseudo-relation "body"). A
//     may-be-impacted site whose lines the diff also edited is counted as
//     Consistent: the developer has looked at it.
//   - Consistent sites have level none and appear only in verbose output.
//   - A relation switched off ("none") drops its findings entirely.
//   - Sites in ignored paths are dropped; one site reported twice for the
//     same change and rule is reported once, at its strongest verdict.
//
// Over-approximation: an analyzer may report a site as may-be-impacted
// when it cannot resolve the receiver; it must not report an error it
// cannot justify from syntax or types. This package never upgrades a
// verdict.
package propagate
