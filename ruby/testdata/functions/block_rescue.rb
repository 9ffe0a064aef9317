# A do ... end block with rescue, else and ensure clauses (Ruby 2.5 and
# later), as hiera_vault's paths.each block has; next inside it still
# goes on to the next element.
module Puppet::Parser::Functions
  newfunction(:block_rescue, :type => :rvalue) do |args|
    out = []
    args.each do |a|
      next if a.nil?
      out << Integer(a)
    rescue ArgumentError => e
      out << "bad #{a}"
    else
      out << 'ok'
    ensure
      out << "done #{a.inspect}"
    end
    [1].map do |x|
      raise 'boom' if args.empty?
      x
    rescue RuntimeError
      -1
    end + out
  end
end
