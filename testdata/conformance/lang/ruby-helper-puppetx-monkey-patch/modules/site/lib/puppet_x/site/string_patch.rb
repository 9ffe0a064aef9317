module PuppetX
  module Site
    # Gives Puppet's string formatter a shout.
    module StringPatch
      def site_shout(s)
        s.upcase + '!'
      end
    end
  end
end
