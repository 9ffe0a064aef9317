module Puppet_X
  module M
    def self.implode(hash, path = [])
      out = {}
      walk(out, hash, path)
      out
    end

    def self.walk(out, hash, path)
      hash.each do |key, value|
        if value.is_a?(Hash)
          walk(out, value, path + [key])
        else
          out[(path + [key]).join('.')] = value
        end
      end
    end

    module Sorted
      def self.extended(base)
        pairs = base.to_a.sort
        base.clear
        pairs.each { |k, v| base[k] = v }
      end

      def each_pair
        keys.sort.each { |k| yield k, self[k] }
      end
    end
  end
end
