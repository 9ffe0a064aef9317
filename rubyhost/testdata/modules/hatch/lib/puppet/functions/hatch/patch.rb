# Monkey-patches Puppet, as some site code does: a module under
# PuppetX:: prepended to a Puppet class. The value is the Class.
module PuppetX
  module Hatch
    module ScopePatch
      def hatch_patched?
        true
      end
    end
  end
end

Puppet::Functions.create_function(:'hatch::patch') do
  def patch
    Puppet::Parser::Scope.prepend(PuppetX::Hatch::ScopePatch)
  end
end
