# A role() function of the kind real sites have: it sets a top-scope
# variable and includes the role's class.
module Puppet::Parser::Functions
  newfunction(:hatch_role, :type => :rvalue) do |args|
    role = args[0] || lookupvar('::greeting')
    compiler.topscope.setvar('role', role)
    function_include(["role::#{role}"])
    role
  end
end
