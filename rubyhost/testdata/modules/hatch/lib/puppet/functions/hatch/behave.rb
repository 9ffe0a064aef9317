# Misbehaves on request, for the helper's limits.
Puppet::Functions.create_function(:'hatch::behave') do
  def behave(what, n = 0)
    case what
    when 'sleep' then sleep(n); 'slept'
    when 'exit' then exit!(3)
    when 'big' then 'x' * n
    when 'print' then puts 'noise on stdout'; print 'more'; 'printed'
    when 'raise' then raise Puppet::ParseError, "hatch says no: #{n}"
    when 'object' then Object.new
    when 'remember' then old = $hatch_memory; $hatch_memory = n; old
    when 'kill' then Process.kill('KILL', Process.pid)
    when 'log' then Puppet.warning('careful'); Puppet.debug('hidden'); 'logged'
    else "unknown #{what}"
    end
  end
end
