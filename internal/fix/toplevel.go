package fix

import (
	"fmt"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Code at file scope. A call under `if __name__ == "__main__":`, a
// module-level assignment or a TypeScript module's top-level statement
// lies in no declaration. What a mechanical fix settles there is one
// FileScope obligation per file, as before; what needs the model is an
// obligation per top-level statement (lang.TopLevel), a block like any
// other but judged by the front-end's CheckStatement: the file parses
// and the replaced lines hold statements only, never a definition.

// statementAt is the top-level statement of the scratch state's file
// holding a line, when the model could be asked to edit it.
func (e *engine) statementAt(path string, line int) (model.Span, string, bool) {
	if e.noModel {
		return model.Span{}, "", false
	}
	tl, ok := e.frontendFor(path).(lang.TopLevel)
	if !ok {
		return model.Span{}, "", false
	}
	src, err := e.sc.read(path)
	if err != nil {
		return model.Span{}, "", false
	}
	return tl.Statement(path, src, line)
}

// statementBlock is the obligation block of a top-level statement
// holding a line of the scratch state, for an oracle diagnostic outside
// any declaration.
func (e *engine) statementBlock(path string, line int) *model.Block {
	sp, name, ok := e.statementAt(path, line)
	if !ok {
		return nil
	}
	return &model.Block{Path: path, Display: StatementBlock(name), Span: sp}
}

// checkStatement judges the replacement of a top-level statement.
func (e *engine) checkStatement(ob *Obligation, src []byte, from, to int) error {
	tl, ok := e.frontendFor(ob.Path).(lang.TopLevel)
	if !ok {
		return fmt.Errorf("no front-end can check edits of top-level code in %s", ob.Path)
	}
	return tl.CheckStatement(ob.Path, src, from, to)
}
