# A 4.x test function without dispatch: classes of its arguments, deduplicated
# with uniq and compared with a constant (as vmlib's php_ini checks its arguments).
Puppet::Functions.create_function(:'mytest::class_uniq') do
  def class_uniq(*args)
    classes = args.map(&:class)
    [classes.uniq.length, classes.uniq == [Hash], { Hash => 1, args.first.class => 2 }.size]
  end
end
