// Package pyright is the Python oracle: pyright (`pyright --outputjson`
// on the affected files; its errors count, its warnings do not), found on
// PATH or in the user cache, else installed there with npm (Version),
// else a clear error. A file pyright's default exclude would drop (a
// dot-folder's script) is judged through a configuration of its own; a
// pass that analysed fewer files than it was given says so
// (oracle.Result.Unanalysed). The Python front-end returns it
// (lang.Provable).
package pyright
