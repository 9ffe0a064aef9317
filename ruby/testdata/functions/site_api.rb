# Ruby that site functions use: a local of the module body seen by the
# block (os_version's table), named captures of a regexp literal's =~
# assigning locals, Hash#shift, URI's parts, File.extname, File.basename
# with a suffix and File.expand_path of absolute paths.
require 'uri'

module Puppet::Parser::Functions
  releases = { 'debian' => { 'bookworm' => '12' } }

  newfunction(:site_api, :type => :rvalue) do |args|
    out = []
    args.each do |a|
      case a
      when Hash
        out << [a.shift, a.shift, a]
      when %r{://}
        u = URI(a)
        out << [u.scheme, u.host, u.port, u.path, u.query, u.fragment, u.user, u.userinfo, u.hostname, u.to_s, "#{u}", u.class.to_s]
      when %r{^/}
        out << [File.extname(a), File.basename(a, '.gz'), File.basename(a, '.*'), File.expand_path(a), File.expand_path('../x', a), File.basename(a)]
      else
        if /^(?<id>\w+) *(?<op>[<>=]*) *(?<rel>[\w.]+)?$/ =~ a
          out << [id, op, rel, releases[id] && releases[id][rel]]
        else
          out << [defined?(id).to_s, id]
        end
      end
    end
    out
  end
end
