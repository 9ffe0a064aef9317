class MHelperFailure < StandardError; end

module Puppet
  module Util
    class MHelper
      def self.twice(s)
        raise MHelperFailure, 'empty' if s.empty?
        s * 2
      end
    end
  end
end
