package fix

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestTypeScriptModelEdit: a TypeScript caller that no mechanical fix
// can settle (an added parameter with no given value) is rewritten by the
// model; the reply opens with an import the block needs, which is added
// after the file's imports, and the block is judged by the TypeScript
// front-end (it parses and declares exactly the planned function). A
// reply that declares another function beside it is rejected.
func TestTypeScriptModelEdit(t *testing.T) {
	repo, sc := setup(t, `
-- old/src/lib.ts --
export function scale(x: number): number {
  return 2 * x;
}
-- old/src/factor.ts --
export const DEFAULT_FACTOR = 2;
-- old/src/use.ts --
import { scale } from './lib';

export function use(): number {
  return scale(2);
}

export function other(): number {
  return scale(3);
}
-- new/src/lib.ts --
export function scale(x: number, factor: number): number {
  return factor * x;
}
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		switch block {
		case "function use":
			return 200, "```ts\nimport { DEFAULT_FACTOR } from './factor';\n\nexport function use(): number {\n  return scale(2, DEFAULT_FACTOR);\n}\n```", 0
		case "function other":
			return 200, "```ts\nexport function other(): number {\n  return scale(3, 1);\n}\n\nexport function more(): number {\n  return 1;\n}\n```", 0
		}
		t.Errorf("unexpected block %q", block)
		return 500, "", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0), Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.ByModel != 1 || res.Rejected == 0 {
		logPlan(t, res)
		t.Fatalf("by model %d, rejected %d, patch:\n%s", res.ByModel, res.Rejected, res.Patch)
	}
	for _, want := range []string{"+import { DEFAULT_FACTOR } from './factor';", "+  return scale(2, DEFAULT_FACTOR);"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
	if strings.Contains(res.Patch, "more") {
		t.Errorf("the reply declaring a second function was merged:\n%s", res.Patch)
	}
	rejected := false
	for _, ob := range res.Obligations {
		if ob.Block == "function other" && strings.Contains(ob.Note, "holds 2 declarations") {
			rejected = true
		}
	}
	if !rejected {
		logPlan(t, res)
		t.Errorf("function other: not rejected for its second declaration")
	}
}

// needTSC skips a test when TypeScript 7's compiler cannot run here
// (.ci/run installs it beforehand where it can).
func needTSC(t *testing.T) {
	t.Helper()
	testrepo.UseTools(t, testrepo.TypeScriptTool)
	if _, err := (&tsc.Compiler{}).Locate(context.Background()); err != nil {
		t.Skipf("TypeScript 7's compiler cannot run here: %v", err)
	}
}

// TestTypeScriptDeclare: the developer's new code imports a function the
// module it names does not export yet (TS2305) and calls a local helper
// nobody wrote (TS2304). Both become obligations to declare them (the
// TypeScript front-end is a lang.Declarer); the replies are added to the
// right modules, and tsc proves the state.
func TestTypeScriptDeclare(t *testing.T) {
	needTSC(t)
	repo, sc := setup(t, `
-- old/src/lib.ts --
export function scale(x: number): number {
  return 2 * x;
}
-- old/src/use.ts --
import { scale } from './lib';

export function use(): number {
  return scale(2);
}
-- new/src/use.ts --
import { scale, clamp } from './lib';

export function use(): number {
  return clamp(scale(2)) + half(4);
}
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		switch block {
		case "new clamp":
			return 200, "```ts\nexport function clamp(x: number): number {\n  return Math.min(x, 100);\n}\n```", 0
		case "new half":
			return 200, "```ts\nfunction half(x: number): number {\n  return x / 2;\n}\n```", 0
		}
		t.Errorf("unexpected block %q", block)
		return 500, "", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: &tsc.Compiler{}, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven {
		logPlan(t, res)
		t.Fatalf("not proven: oracle %+v patch:\n%s", res.Oracle, res.Patch)
	}
	for _, want := range []string{"+++ b/src/lib.ts", "+export function clamp(x: number): number {", "+++ b/src/use.ts", "+function half(x: number): number {"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
}

// TestTypeScriptObjectMembers: the methods of exported objects (a
// visitor's, a plugin's default export's hooks) are blocks keyed by the
// declaration holding the object ("method visitor.Identifier"), so the
// model is asked for each member alone and its reply is judged as that
// member; tsc proves the state. A reply that brings a second member is
// refused.
func TestTypeScriptObjectMembers(t *testing.T) {
	needTSC(t)
	repo, sc := setup(t, `
-- old/tsconfig.json --
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2020", "module": "esnext", "moduleResolution": "bundler" }, "include": ["src"] }
-- old/src/lib.ts --
export function label(x: string): string {
  return x;
}
-- old/src/visit.ts --
import { label } from './lib';

export const visitor = {
  Identifier(node: string): string {
    return label(node);
  },
  Literal: function (node: string): string {
    return label(node);
  },
  Call: (node: string): string => label(node),
  Keep(): number {
    return 1;
  },
};

export default {
  setup(x: string): string {
    return label(x);
  },
};
-- new/src/lib.ts --
export function label(x: string, depth: number): string {
  return x + depth;
}
`)
	asked := map[string]int{}
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		asked[block]++
		switch block {
		case "method visitor.Identifier":
			return 200, "```ts\n  Identifier(node: string): string {\n    return label(node, 0);\n  },\n```", 0
		case "method visitor.Literal":
			return 200, "```ts\n  Literal: function (node: string): string {\n    return label(node, 1);\n  },\n```", 0
		case "method visitor.Call":
			if asked[block] == 1 {
				// a second member beside it: refused
				return 200, "```ts\n  Call: (node: string): string => label(node, 2),\n  Extra: (): number => 2,\n```", 0
			}
			return 200, "```ts\n  Call: (node: string): string => label(node, 2),\n```", 0
		case "method default.setup":
			return 200, "```ts\n  setup(x: string): string {\n    return label(x, 3);\n  },\n```", 0
		}
		t.Errorf("unexpected block %q", block)
		return 500, "", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: &tsc.Compiler{}, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven {
		logPlan(t, res)
		t.Fatalf("not proven: oracle %+v patch:\n%s", res.Oracle, res.Patch)
	}
	for _, want := range []string{"+    return label(node, 0);", "+    return label(node, 1);", "+  Call: (node: string): string => label(node, 2),", "+    return label(x, 3);"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
	if strings.Contains(res.Patch, "Extra") || res.Rejected == 0 {
		t.Errorf("the reply with a second member was taken (rejected %d):\n%s", res.Rejected, res.Patch)
	}
	if asked["method visitor.Keep"] > 0 {
		t.Errorf("an unaffected member was planned")
	}
}
