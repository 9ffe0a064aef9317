Puppet::Functions.create_function(:'t::reraise') do
  def reraise()
    begin
      call_function('fail', 'boom')
    rescue Puppet::ParseError => e
      raise
    end
  end
end
