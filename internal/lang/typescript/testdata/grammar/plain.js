const { a } = require('./a');
module.exports = function (x, y = 2, ...z) { return a(x, y, ...z) };
