module Puppet::Parser::Functions
  newfunction(:api_info3, :type => :rvalue) do |args|
    env = compiler.environment
    krt = env.known_resource_types
    file = Puppet::Parser::Files.find_file('api/data.txt', env)
    [
      find_hostclass('api').name, find_hostclass('::Api::Extra').type.to_s, find_hostclass('nope').nil?,
      find_definition('api::thing').name, find_definition('api').nil?,
      krt.find_hostclass('api::extra').name, krt.find_definition('nope').nil?,
      env.name.to_s, env.module('api').path.end_with?('/modules/api'), env.module('none').nil?,
      file.end_with?('/api/files/data.txt'), Puppet::Parser::Files.find_file('api/missing', env).nil?,
      Puppet::FileSystem.exist?(file), Puppet::FileSystem.read(file), Puppet::FileSystem.file?(file), Puppet::FileSystem.directory?(file),
      Puppet::Util.absolute_path?(file), Puppet::Util.absolute_path?('rel/x'),
      catalog.resource('Api::Thing', 'a').to_hash[:n], catalog.resource('Api::Thing[a]').title, catalog.resource('File', '/nope').nil?,
      catalog.resources.map { |r| r.to_s }.select { |s| s.start_with?('Api') || s.start_with?('File') },
    ]
  end
end
