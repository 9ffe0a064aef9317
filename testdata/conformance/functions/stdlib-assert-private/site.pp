# Sample calls of assert_private; each result is a notify message.
class sample_private { assert_private() notify { 'call 1: assert_private() in a class of site.pp': } }
define sample_private_define() { assert_private('custom message') notify { "call 2: assert_private('custom message') in a define of site.pp (${title})": } }
include sample_private
sample_private_define { 'x': }
