include a::b::c
include a::d
a::b::thing { 'one': }
