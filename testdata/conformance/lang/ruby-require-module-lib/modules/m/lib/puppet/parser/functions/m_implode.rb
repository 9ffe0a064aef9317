$LOAD_PATH.unshift(File.join(File.dirname(__FILE__), '..', '..', '..'))

require 'puppet_x/m/util'

module Puppet::Parser::Functions
  newfunction(:m_implode, type: :rvalue) do |args|
    Puppet_X::M.implode(args[0])
  end
end
