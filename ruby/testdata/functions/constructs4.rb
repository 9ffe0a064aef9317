# A 4.x test function with several rescue clauses on method bodies and
# begin blocks, rescue ... else ... ensure, and **hash arguments.
Puppet::Functions.create_function(:constructs4) do
  class ConstructsError < StandardError; end

  def constructs4(*whats)
    log = []
    whats.map { |w| [classify(w, log), log.shift] }
  end

  def classify(what, log)
    opts = { 'sep' => ':' }
    begin
      fail_with(what)
    rescue ArgumentError, TypeError => e
      "#{e.class}#{opts['sep']}argument or type: #{e.message}"
    rescue NameError => e
      "name error #{e.class}"
    rescue ConstructsError, IndexError => e
      "own or index #{e.class}"
    else
      'none'
    ensure
      log << "ensure #{what}"
    end
  rescue Puppet::Error => e
    "outer #{e.class}: #{e.message}"
  rescue => e
    "standard #{e.class}"
  end

  def fail_with(what)
    case what
    when 'arg' then raise ArgumentError, 'bad'
    when 'type' then raise TypeError
    when 'nomethod' then nil.frobnicate
    when 'zero' then 1 / 0
    when 'key' then {}.fetch('k')
    when 'own' then raise ConstructsError, 'mine'
    when 'parse' then raise Puppet::ParseError, 'parse'
    when 'runtime' then raise 'plain'
    when 'reraise'
      begin
        raise KeyError, 'inner'
      rescue KeyError
        raise
      end
    when 'splat' then merged(**{ 'x' => 1 }, 'y' => 2)
    when 'nilsplat'
      h = nil
      { **h }
    else 'fine'
    end
  end

  def merged(h)
    raise ArgumentError, h.inspect
  end
end
