module Puppet::Parser::Functions
  newfunction(:'m::quote', type: :rvalue) do |args|
    "'#{args[0]}'"
  end

  newfunction(:m_flags, type: :rvalue) do |args|
    opts = args[0]
    multi = ->(values, fmt) {
      [values].flatten.compact.map { |v| fmt % call_function('m::quote', [v]) }
    }
    join = lambda { |parts| parts.join(' ') }
    pair = proc do |k, v|
      "#{k}=#{v}"
    end
    flags = multi.call(opts['env'], '--env %s') + multi[opts['label'], '--label %s']
    flags += opts.sort.map(&pair)
    join.call(flags)
  end
end
