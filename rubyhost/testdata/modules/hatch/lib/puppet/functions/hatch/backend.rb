# A lookup_key Hiera backend using its Puppet::LookupContext.
Puppet::Functions.create_function(:'hatch::backend') do
  dispatch :lookup_key do
    param 'Variant[String, Numeric]', :key
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def lookup_key(key, options, context)
    context.explain { "hatch looks for #{key}" }
    return context.cached_value(key) if context.cache_has_key(key)
    context.not_found if key == 'missing'
    value = context.interpolate("#{options['prefix']}-%{greeting}-#{key}")
    context.cache(key, value)
  end
end
