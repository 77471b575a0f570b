package typescript

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

func TestMissingIn(t *testing.T) {
	fe := &Frontend{}
	for msg, want := range map[string]*lang.Missing{
		"Cannot find name 'clamp'. (TS2304)":                                                  {Name: "clamp"},
		"Cannot find name 'clmp'. Did you mean 'clamp'? (TS2552)":                             {Name: "clmp"},
		"Property 'size' does not exist on type 'Box'. (TS2339)":                              {Type: "Box", Name: "size"},
		"Property 'sise' does not exist on type 'Box'. Did you mean 'size'? (TS2551)":         {Type: "Box", Name: "sise"},
		`Module '"./lib"' has no exported member 'clamp'. (TS2305)`:                           {Qualifier: "./lib", Name: "clamp"},
		`'"../util/x.js"' has no exported member named 'y'. Did you mean 'z'? (TS2724)`:       {Qualifier: "../util/x.js", Name: "y"},
		`Module '"react"' has no exported member 'useThing'. (TS2305)`:                        nil, // a package
		"Property 'x' does not exist on type '{ a: number; }'. (TS2339)":                      nil, // no declared type
		"Argument of type 'string' is not assignable to parameter of type 'number'. (TS2345)": nil,
	} {
		got, ok := fe.MissingIn(msg)
		if want == nil {
			if ok {
				t.Errorf("MissingIn(%q) = %+v, want none", msg, got)
			}
			continue
		}
		if !ok || got != *want {
			t.Errorf("MissingIn(%q) = %+v, %v; want %+v", msg, got, ok, *want)
		}
	}
	if !fe.TypeMismatch("Argument of type 'string' is not assignable to parameter of type 'number'. (TS2345)") || fe.TypeMismatch("Cannot find name 'x'. (TS2304)") {
		t.Error("TypeMismatch")
	}
	if !fe.IsTest("src/a.test.ts") || !fe.IsTest("src/__tests__/a.ts") || fe.IsTest("src/testing.ts") {
		t.Error("IsTest")
	}
}
