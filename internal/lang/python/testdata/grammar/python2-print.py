print 'hello'
