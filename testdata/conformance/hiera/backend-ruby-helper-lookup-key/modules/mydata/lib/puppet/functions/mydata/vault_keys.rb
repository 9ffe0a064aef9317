require 'set'

# A lookup_key backend beyond marionette's Ruby subset (Struct, Set): it
# answers keys of its namespace from a table built once per lookup
# location and kept in the context's cache, interpolates its answers,
# explains itself, and calls not_found for other keys.
Puppet::Functions.create_function(:'mydata::vault_keys') do
  dispatch :lookup_key do
    param 'String[1]', :key
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  Secret = Struct.new(:path, :value)

  def lookup_key(key, options, context)
    context.explain { "vault_keys looking for #{key} in #{options['mount']}" }
    return context.cached_value(key) if context.cache_has_key(key)

    known = Set.new(%w[app::region app::servers app::loaded])
    context.not_found unless known.include?(key)
    secret = case key
             when 'app::region' then Secret.new(options['mount'], context.interpolate('%{facts.os.family}-%{::domain}'))
             when 'app::servers' then Secret.new(options['mount'], (1..options['count']).map { |i| "srv#{i}.#{options['region']}" })
             else Secret.new(options['mount'], "#{context.environment_name}/#{context.module_name.inspect}")
             end
    context.cache(key, secret.value)
  end
end
