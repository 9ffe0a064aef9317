class first { notify { 'in-first': } }
class second { notify { 'in-second': } }
include first, second
Class['first'] -> Class['second']
