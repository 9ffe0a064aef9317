# The role of a node from its hostname: web01 -> web. It sets $::role
# for the rest of the compile and includes role::<role>.
module Puppet::Parser::Functions
  newfunction(:site_role, :type => :rvalue) do |args|
    role_of = Struct.new(:name, :tier)
    role = role_of.new(lookupvar('::hostname').sub(/\d+$/, ''), args[0] || 'prod')
    compiler.topscope.setvar('role', role.name)
    self['role_tier'] = role.tier
    function_include(["role::#{role.name}"])
    "#{role.name}/#{role.tier}"
  end
end
