require 'hocon/config_factory'
require 'json'
ins = File.read(ARGV[0]).split("\n----\n")
ins.each do |s|
  begin
    v = Hocon::ConfigFactory.parse_string(s).resolve.root.unwrapped
    puts JSON.generate([s, JSON.generate(v)])
  rescue => e
    puts JSON.generate([s, "ERROR " + e.message])
  end
end
