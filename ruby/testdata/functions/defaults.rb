# A 4.x test function over hashes.
Puppet::Functions.create_function(:merge_defaults) do
  dispatch :merge_defaults do
    param 'Hash', :h
    optional_param 'Hash', :defaults
  end

  def merge_defaults(h, defaults = { 'enabled' => true })
    raise Puppet::ParseError, "merge_defaults(): expected a Hash, got #{h.class}" unless h.is_a?(Hash)
    result = defaults.merge(h)
    result.reject { |_k, v| v.nil? || v == '' }.sort.to_h
  end
end
