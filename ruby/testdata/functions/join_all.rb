# A 4.x test function with a splat parameter and a default argument.
Puppet::Functions.create_function(:join_all) do
  def join_all(*args)
    raise ArgumentError, "join_all(): needs at least one argument" if args.size < 1
    parts = args.flatten.compact.map { |a| a.to_s.strip }
    parts.reject(&:empty?).join(sep)
  end

  def sep(s = ',')
    s
  end
end
