# A data_hash backend for key=value files.
Puppet::Functions.create_function(:'mydata::properties') do
  dispatch :properties do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def properties(options, context)
    path = options['path']
    context.explain { "reading #{File.basename(path)}" }
    context.cached_file_data(path) do |content|
      data = {}
      content.each_line do |line|
        line = line.strip
        next if line.empty? || line.start_with?('#')
        key, value = line.split('=', 2)
        data[key] = value
      end
      data
    end
  end
end
