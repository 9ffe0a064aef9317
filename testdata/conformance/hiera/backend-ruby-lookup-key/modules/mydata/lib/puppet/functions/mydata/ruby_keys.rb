# A lookup_key backend: computes its answers once and keeps them in the
# lookup context's cache.
Puppet::Functions.create_function(:'mydata::ruby_keys') do
  dispatch :lookup_key do
    param 'String[1]', :key
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def lookup_key(key, options, context)
    unless context.cache_has_key('app::region')
      context.cache_all({
        'app::region' => options['region'],
        'app::servers' => (1..options['count']).map { |i| "srv#{i}.#{options['region']}" },
        'app::loaded' => 'once',
      })
    end
    if context.cache_has_key(key)
      context.cached_value(key)
    else
      context.not_found
    end
  end
end
