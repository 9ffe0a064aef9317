class c { notify { 'n': } }
class { 'c': }
define d() { contain c }
d { 'alice': noop => true, loglevel => 'info' }
class e { notify { 'm': } }
include e
define f() { include e }
f { 'bob': }
